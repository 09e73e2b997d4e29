#!/usr/bin/env bash
# Builds the fuzzers of fuzz/ (in build-asan/, with ASan + UBSan, as
# `scripts/build.sh --sanitize` does) and runs each for SECONDS (default
# 60), starting from seeds extracted from test/. Corpora grow in
# build-asan/fuzz/corpus/<fuzzer>/; a crash leaves its input in
# build-asan/fuzz/crash-* and fails the script.
#   scripts/fuzz.sh [SECONDS] [FUZZER...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
build_dir=${MPMD_BUILD_DIR:-$root/build-asan}
fuzzers=("$@")
if [ ${#fuzzers[@]} -eq 0 ]; then
  fuzzers=(mpmd-ir-fuzzer mpmd-import-pipeline-fuzzer
           mpmd-optimize-pipeline-fuzzer mpmd-sharding-propagation-pipeline-fuzzer
           mpmd-export-pipeline-fuzzer
           mpmd-sdy-propagation-pipeline-fuzzer mpmd-sdy-partitioner-fuzzer
           mpmd-gspmd-import-pipeline-fuzzer
           mpmd-interpreter-fuzzer mpmd-config-fuzzer mpmd-npy-fuzzer
           mpmd-schedule-fuzzer)
fi

MPMD_BUILD_DIR=$build_dir "$root/scripts/build.sh" --sanitize "${fuzzers[@]}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

work=$build_dir/fuzz
/usr/bin/python3 "$root/fuzz/extract-seeds.py" "$root" "$work/seeds"
status=0
for fuzzer in "${fuzzers[@]}"; do
  corpus=$work/corpus/$fuzzer
  mkdir -p "$corpus" "$work/seeds/$fuzzer"
  echo "fuzz.sh: $fuzzer for ${seconds}s" >&2
  # New inputs go to the first directory; the seeds are read only.
  if ! (cd "$work" && "./$fuzzer" -max_total_time="$seconds" -timeout=20 \
          -rss_limit_mb=4096 -print_final_stats=1 "$corpus" \
          "$work/seeds/$fuzzer" >"$work/$fuzzer.log" 2>&1); then
    echo "fuzz.sh: $fuzzer FAILED; see $work/$fuzzer.log" >&2
    tail -n 40 "$work/$fuzzer.log" >&2
    status=1
  fi
done
exit $status
