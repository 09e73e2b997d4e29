#!/usr/bin/env bash
# Installs missing dependencies, builds mpmd and runs the main demo: a generated training step
# (16 labelled layers forward and backward, 8 microbatches through mpmd.call, an SGD update) is
# compiled with 1F1B over 4 meshes by `mpmd compile`, which prints its summary; then the compiled
# schedule is simulated and checked for deadlocks by `mpmd schedule`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MPMD_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" mpmd mpmd-generate-program
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== mpmd-generate-program --layers 16 --microbatches 8 --meshes 4 --schedule 1F1B"
"$build/bin/mpmd-generate-program" --layers 16 --microbatches 8 --meshes 4 \
  --config "$work/config.json" --schedule 1F1B > "$work/model.mlir"
cat "$work/config.json"
echo
echo "== mpmd compile model.mlir --config config.json -o out.mlir --summary"
"$build/bin/mpmd" compile "$work/model.mlir" --config "$work/config.json" \
  -o "$work/out.mlir" --dump-dir "$work/phases" --summary
echo "== mpmd schedule (the optimized program, unit costs)"
"$build/bin/mpmd" schedule "$work/phases/02-optimize.mlir"
