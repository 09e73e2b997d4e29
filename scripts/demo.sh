#!/usr/bin/env bash
# Installs missing dependencies, builds mpmd and runs the main demo: the RFC's first
# example through mpmd-opt (a parse/verify/print round trip until the import passes land).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" mpmd-opt
"${MPMD_BUILD_DIR:-$root/build}/bin/mpmd-opt" "$root/examples/rfc_simple_mesh_inference.mlir"
