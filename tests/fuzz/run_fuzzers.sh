#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a while, growing tests/fuzz/corpus/.
# Usage: tests/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET] [TARGET...]
set -euo pipefail
seconds=${1:-60}; shift || true
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${KERCHUNK_FUZZ_BUILD:-$root/build-fuzz}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKERCHUNK_FUZZ=ON -DKERCHUNK_BUILD_TESTS=ON >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$root"/tests/fuzz/*_fuzz.cpp; do n=$(basename "$f" _fuzz.cpp); targets+=("$n"); done
fi
for t in "${targets[@]}"; do
  cmake --build "$build" --target "${t}_fuzzer"
  mkdir -p "$root/tests/fuzz/corpus/$t"
  echo "== fuzzing $t for ${seconds}s"
  "$build/tests/fuzz/${t}_fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -rss_limit_mb=2048 "$root/tests/fuzz/corpus/$t"
done
