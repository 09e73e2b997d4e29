#!/usr/bin/env bash
# Configures (once) and builds mpmd with clang-22 + lld and ccache.
#   scripts/build.sh [TARGET...]             build/: the normal Release build
#   scripts/build.sh --sanitize [TARGET...]  build-asan/: ASan + UBSan, with
#       libFuzzer coverage and the fuzzers of fuzz/; builds what the tests
#       need unless targets are given
#   scripts/build.sh --tsan [TARGET...]      build-tsan/: ThreadSanitizer;
#       builds the executor's unit tests unless targets are given
# MPMD_BUILD_DIR overrides the directory, MPMD_BUILD_JOBS the parallelism.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${MPMD_BUILD_JOBS:-$(nproc)}

variant=release
case "${1:-}" in
  --sanitize) variant=asan; shift ;;
  --tsan) variant=tsan; shift ;;
esac

options=(-DCMAKE_BUILD_TYPE=Release)
targets=("$@")
case $variant in
  release)
    build_dir=${MPMD_BUILD_DIR:-$root/build} ;;
  asan)
    build_dir=${MPMD_BUILD_DIR:-$root/build-asan}
    # -O1: instrumented code compiles faster and runs about as fast as -O2.
    options+=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG"
              -DMPMD_SANITIZERS=address,undefined -DMPMD_ENABLE_FUZZERS=ON
              -DMPMD_ENABLE_PYTHON=OFF
              # OpenMPI cannot run under LeakSanitizer here (docs/reliability.md).
              -DMPMD_ENABLE_MPI=OFF)
    [ ${#targets[@]} -gt 0 ] || targets=(mpmd-test-binaries mpmd-fuzzers) ;;
  tsan)
    build_dir=${MPMD_BUILD_DIR:-$root/build-tsan}
    options+=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG"
              -DMPMD_SANITIZERS=thread -DMPMD_ENABLE_PYTHON=OFF)
    [ ${#targets[@]} -gt 0 ] || targets=(MPMDExecutorTests) ;;
esac

if [ ! -f "$build_dir/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$root" -B "$build_dir" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${options[@]}" "${launcher[@]}"
fi
# ccache hits across clones (CI builds a fresh one): paths under the
# repository are hashed relative to it, and the build directory is left out
# of the hash (only debug info records it: none in Release, line tables in
# the sanitizer builds, whose reports then name the first clone's paths).
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
ninja -C "$build_dir" -j "$jobs" "${targets[@]}"
