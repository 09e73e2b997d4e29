#!/usr/bin/env bash
# Installs missing dependencies, builds mpmd and runs the main demo: `mpmd example mlp` writes a real
# training step of a 16-layer MLP (forward, backward derived by us, 8 microbatches through mpmd.call,
# SGD) and its config; `mpmd compile` lowers it with 1F1B over 4 meshes and prints its summary;
# `mpmd run` compiles it again, runs it on 4 virtual devices, checks every output against the
# unpartitioned model (--validate), writes a Chrome trace and prints the run summary; finally
# `mpmd schedule` simulates the compiled schedule.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MPMD_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" mpmd
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mlp=(--layers 16 --width 128 --batch 256 --microbatches 8 --meshes 4 --schedule 1F1B)
echo "== mpmd example mlp ${mlp[*]}"
"$build/bin/mpmd" example mlp "${mlp[@]}" -o "$work/model.mlir" --config-out "$work/config.json"
cat "$work/config.json"
echo
echo "== mpmd compile model.mlir --config config.json -o exported.mlir --summary"
"$build/bin/mpmd" compile "$work/model.mlir" --config "$work/config.json" \
  -o "$work/exported.mlir" --dump-dir "$work/phases" --summary
echo
echo "== mpmd run model.mlir --config config.json --random-inputs 0 --validate --trace trace.json --summary --repeat 3"
echo "   (output 0 is the loss, outputs 1.. the updated weights)"
"$build/bin/mpmd" run "$work/model.mlir" --config "$work/config.json" --random-inputs 0 \
  --validate --trace "$work/trace.json" --summary --repeat 3
echo "   trace: $(wc -c < "$work/trace.json") bytes of Chrome trace JSON (copy it out to open it in ui.perfetto.dev)"
echo
echo "== mpmd schedule (the optimized program, unit costs)"
"$build/bin/mpmd" schedule "$work/phases/02-optimize.mlir"
