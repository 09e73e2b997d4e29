#!/usr/bin/env bash
# Installs missing dependencies, builds everything and runs every test (lit + gtest) through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "${MPMD_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)"
