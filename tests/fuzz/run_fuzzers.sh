#!/usr/bin/env bash
# A fuzz campaign: builds the libFuzzer targets with clang (library and harness instrumented,
# ASan + UBSan), runs each target for SECONDS on its saved corpus, then merges the inputs that
# reached new code back into tests/fuzz/corpus/<target>/ (libFuzzer -merge=1 keeps only those).
# A crash, hang or failed property leaves its input in $build/findings/<target>/ and makes the
# script exit 1 after all targets ran. docs/fuzzing.md records each campaign.
#
# Usage: tests/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  default 60; every target when none is named (tests/fuzz/*_fuzz.cpp)
# Environment: KERCHUNK_FUZZ_BUILD (build folder, default build-fuzz), FUZZ_JOBS (parallel
#   fuzzing processes per target, default 1), FUZZ_MAX_LEN (default 65536).
set -euo pipefail
seconds=${1:-60}
shift || true
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${KERCHUNK_FUZZ_BUILD:-$root/build-fuzz}
jobs=${FUZZ_JOBS:-1}
max_len=${FUZZ_MAX_LEN:-65536}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKERCHUNK_FUZZ=ON -DKERCHUNK_BUILD_TESTS=ON >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$root"/tests/fuzz/*_fuzz.cpp; do targets+=("$(basename "$f" _fuzz.cpp)"); done
fi
fuzzers=()
for t in "${targets[@]}"; do fuzzers+=("${t}_fuzzer"); done
echo "== building ${fuzzers[*]} in $build"
cmake --build "$build" --target "${fuzzers[@]}" >"$build/build.log" 2>&1 || {
  tail -50 "$build/build.log"
  exit 2
}

failed=0
summary=()
for t in "${targets[@]}"; do
  corpus="$root/tests/fuzz/corpus/$t"
  fresh="$build/fresh/$t"        # new inputs of this run, merged into $corpus at the end
  findings="$build/findings/$t"  # crash-*, timeout-*, oom-* inputs
  log="$build/logs/$t.log"
  mkdir -p "$corpus" "$fresh" "$findings" "$(dirname "$log")"
  dict=()
  [ -f "$root/tests/fuzz/$t.dict" ] && dict=(-dict="$root/tests/fuzz/$t.dict")
  echo "== fuzzing $t for ${seconds}s ($jobs job(s)), log: $log"
  status=0
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  # With -jobs each process writes fuzz-<n>.log into the current folder: use the log folder.
  (cd "$(dirname "$log")" && rm -f fuzz-*.log &&
    "$build/tests/fuzz/${t}_fuzzer" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" "${parallel[@]}" \
      "${dict[@]}" "$fresh" "$corpus") >"$log" 2>&1 || status=$?
  stats=("$log")
  [ "$jobs" -gt 1 ] && stats=("$(dirname "$log")"/fuzz-*.log)
  runs=$(cat "${stats[@]}" | grep -o 'stat::number_of_executed_units: *[0-9]*' |
    awk '{s+=$2} END {print s+0}')
  found=$(find "$findings" -type f | wc -l)
  "$build/tests/fuzz/${t}_fuzzer" -merge=1 "$corpus" "$fresh" >>"$log" 2>&1 || true
  rm -rf "$fresh"
  line="$t: $runs executions in ${seconds}s, corpus $(find "$corpus" -type f | wc -l) files, $found finding(s)"
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    failed=1
    line="$line -- FAILED (exit $status), see $findings and $log"
  fi
  summary+=("$line")
done
printf '%s\n' "== summary" "${summary[@]}"
exit "$failed"
