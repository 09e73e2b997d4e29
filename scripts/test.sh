#!/usr/bin/env bash
# Installs missing dependencies, builds and runs the tests through ctest.
#   scripts/test.sh             every test (lit + gtest) of the normal build
#   scripts/test.sh --sanitize  every test under ASan + UBSan (build-asan/),
#                               then each fuzzer for MPMD_FUZZ_SECONDS (10)
#   scripts/test.sh --tsan      the executor's unit tests under TSan
# Any sanitizer report fails the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
variant=${1:-}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" $variant

# Debian's libMLIR.so is not instrumented: ASan must not check its
# container annotations (allow_user_poisoning=0). Tests of allocation
# failures need malloc to return null rather than abort.
export ASAN_OPTIONS=allow_user_poisoning=0:allocator_may_return_null=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
case $variant in
  "")
    cd "${MPMD_BUILD_DIR:-$root/build}"
    ctest --output-on-failure -j "$(nproc)" ;;
  --sanitize)
    cd "${MPMD_BUILD_DIR:-$root/build-asan}"
    ctest --output-on-failure -j "$(nproc)"
    "$root/scripts/fuzz.sh" "${MPMD_FUZZ_SECONDS:-10}" ;;
  --tsan)
    "${MPMD_BUILD_DIR:-$root/build-tsan}/unittests/MPMDExecutorTests" ;;
  *)
    echo "usage: scripts/test.sh [--sanitize | --tsan]" >&2
    exit 2 ;;
esac
