#!/usr/bin/env bash
# Configures (once) and builds mpmd into build/ with clang-22 + lld and ccache.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${MPMD_BUILD_DIR:-$root/build}
jobs=${MPMD_BUILD_JOBS:-$(nproc)}

if [ ! -f "$build_dir/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$root" -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${launcher[@]}"
fi
ninja -C "$build_dir" -j "$jobs" "$@"
