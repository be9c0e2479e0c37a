#!/bin/sh
# How far above the floor a wrapped call's cost is: no runtime, libfloor.so
# (floor.c: two TSC reads around the real call, nothing recorded) and
# libiolens.so, run interleaved; ns added per call (medians), and the
# throughput of 64-byte writes from 1, 2 and 4 threads against no runtime.
#
# usage: bench/floor.sh [BUILD_DIR]        (default: build)
# environment:
#   BENCH_ROUNDS    interleaved rounds (default 11)
#   BENCH_THREAD_N  64-byte writes per thread in the thread test (default 300000)
#   BENCH_DATA      directory for the files the calls use (default /dev/shm/iolens-floor.PID)
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
rounds=${BENCH_ROUNDS:-11}
thread_n=${BENCH_THREAD_N:-300000}
bench=$build/bench/overhead
floor=$(cd "$build/bench" 2>/dev/null && pwd)/libfloor.so
lib=$(cd "$build/lib" 2>/dev/null && pwd)/libiolens.so
for f in "$bench" "$floor" "$lib"; do
  [ -e "$f" ] || { echo "floor.sh: $f not built (run make first; libfloor.so is x86-64 only)" >&2; exit 1; }
done
tmp=$(mktemp -d)
data=${BENCH_DATA:-/dev/shm/iolens-floor.$$}
mkdir -p "$data" "$tmp/logs"
trap 'rm -rf "$tmp" "$data"' EXIT
unset LD_PRELOAD IOLENS_LOGFILE IOLENS_EXCLUDE_DIRS 2>/dev/null || true
export IOLENS_LOGPATH="$tmp/logs" DARSHAN_EXCLUDE_DIRS=none
tests="write64 read64 pwrite4k lseek"

run() {
  case $1 in
    none) shift; "$@" ;;
    floor) shift; LD_PRELOAD=$floor "$@" ;;
    iolens) shift; LD_PRELOAD=$lib "$@" ;;
  esac
}

r=0
while [ $r -lt "$rounds" ]; do
  for c in none floor iolens; do
    # shellcheck disable=SC2086
    run "$c" "$bench" calls -d "$data" $tests >> "$tmp/calls.$c"
    for t in 1 2 4; do
      run "$c" "$bench" threads -d "$data" -n "$thread_n" "$t" |
        awk '{ print $2, $3 }' >> "$tmp/threads.$c"
    done
  done
  rm -rf "$tmp/logs" && mkdir "$tmp/logs"
  r=$((r + 1))
done

echo "ns per call, median of $rounds interleaved rounds; +: added to the uninstrumented call"
printf '%-10s %9s %9s %9s %16s\n' call none floor+ iolens+ "iolens+ - floor+"
for t in $tests; do
  echo "$(median_at "$tmp/calls.none" "$t") $(median_at "$tmp/calls.floor" "$t") $(median_at "$tmp/calls.iolens" "$t")" |
    awk -v t="$t" '{ printf "%-10s %9.1f %9.1f %9.1f %16.1f\n", t, $1, $2 - $1, $3 - $1, $3 - $2 }'
done
echo
echo "64-byte writes from T threads at once, each to its own file: throughput against none"
printf '%-8s %12s %8s %8s\n' threads none floor iolens
for t in 1 2 4; do
  echo "$(median_at "$tmp/threads.none" "$t") $(median_at "$tmp/threads.floor" "$t") $(median_at "$tmp/threads.iolens" "$t")" |
    awk -v t="$t" '{ printf "%-8s %12.0f %7.1f%% %7.1f%%\n", t, $1, 100 * $2 / $1, 100 * $3 / $1 }'
done
