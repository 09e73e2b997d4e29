#!/usr/bin/env bash
# Installs missing dependencies, builds mpmd and runs the main demo: the RFC's first example
# (two named layers and unlabelled ops, two meshes) through the import pipeline, which prints
# the program as fragments on meshes with a transfer between them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" mpmd-opt
example="$root/examples/rfc_simple_mesh_inference.mlir"
echo "== input: $example"
cat "$example"
echo "== mpmd-opt -mpmd-import-pipeline='name-to-mesh-assignment=layer1@m1/1,layer2@m2/2'"
"${MPMD_BUILD_DIR:-$root/build}/bin/mpmd-opt" "$example" \
  -mpmd-import-pipeline='name-to-mesh-assignment=layer1@m1/1,layer2@m2/2'
