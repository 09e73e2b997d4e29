#!/usr/bin/env bash
# The 2-rank speed-up of a compute-bound MLP training step (the model of
# mpmd-bench-executor's BM_MlpStep: 8 layers of 512x512, batch 1024 in 8
# microbatches, 1F1B): the step on 1 mesh of one device (one process) vs on
# 2 meshes run by 2 MPI ranks, and, for reference, 2 meshes as 2 threads of
# one process. Rounds interleave the three so that they share the load.
#   bench/mpi-step.sh [ROUNDS]      (build: scripts/build.sh mpmd)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mpmd=${MPMD_BUILD_DIR:-$root/build}/bin/mpmd
rounds=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -ne 0 ] || mpirun+=(--allow-run-as-root)

for meshes in 1 2; do
  "$mpmd" example mlp --layers 8 --width 512 --batch 1024 --microbatches 8 \
    --meshes "$meshes" --schedule 1F1B -o "$work/m$meshes.mlir" \
    --config-out "$work/m$meshes.json"
done
step() { grep -o 'step time: [0-9.]* ms' | grep -o '[0-9.]*' | head -1; }
run=(run --random-inputs 0 --repeat 3 --summary --quiet)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  one=$("$mpmd" "${run[@]}" "$work/m1.mlir" --config "$work/m1.json" | step)
  ranks=$("${mpirun[@]}" -n 2 "$mpmd" "${run[@]}" "$work/m2.mlir" \
            --config "$work/m2.json" --backend mpi | step)
  threads=$("$mpmd" "${run[@]}" "$work/m2.mlir" --config "$work/m2.json" | step)
  echo "round $round: 1 device $one ms; 2 ranks $ranks ms (speed-up" \
       "$(echo "scale=2; $one / $ranks" | bc)x); 2 threads $threads ms" \
       "(speed-up $(echo "scale=2; $one / $threads" | bc)x)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
