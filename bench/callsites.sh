#!/bin/sh
# Cost of the CALLSITES module per 64-byte write (bench/overhead.c's write64):
# libiolens.so with IOLENS_CALLSITES off and on, run interleaved; prints the
# median ns per call of each, and callgrind's instructions per call when
# valgrind is there. The call is made from overhead.c's loop, a few frames
# below main: CALLSITES_DEPTH (default 4) of them are unwound per call.
#
# usage: bench/callsites.sh [BUILD_DIR]   (BENCH_ROUNDS, default 7; BENCH_N, default 100000)
set -eu
build=${1:-build}
rounds=${BENCH_ROUNDS:-7}
n=${BENCH_N:-100000}
bench=$build/bench/overhead
lib=$(cd "$build/lib" && pwd)/libiolens.so
d=$(mktemp -d /dev/shm/iolens-cs-bench.XXXXXX)
trap 'rm -rf "$d"' EXIT
one() { # one VAR=value: ns per call of one run
    env DARSHAN_EXCLUDE_DIRS=none IOLENS_LOGPATH="$d" "$1" LD_PRELOAD="$lib" \
        "$bench" calls -d "$d" -n "$n" -w 2000 write64 | awk '{ print $2 }'
    rm -f "$d"/*.darshan
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: > "$d/off"; : > "$d/on"
for r in $(seq "$rounds"); do
    one IOLENS_CALLSITES=0 >> "$d/off"
    one IOLENS_CALLSITES=1 >> "$d/on"
done
echo "write64, ns per call (median of $rounds): off $(median < "$d/off"), on $(median < "$d/on")"
if command -v valgrind > /dev/null 2>&1; then
    for v in 0 1; do
        o=$d/cg.$v
        env DARSHAN_EXCLUDE_DIRS=none IOLENS_LOGPATH="$d" IOLENS_CALLSITES=$v LD_PRELOAD="$lib" \
            valgrind --tool=callgrind --callgrind-out-file="$o" --collect-atstart=no \
            --toggle-collect=bench_loop "$bench" calls -d "$d" -n 20000 -w 2000 write64 \
            > /dev/null 2>&1
        printf 'write64, instructions per call, CALLSITES=%s: ' "$v"
        awk '/^totals:/ { printf "%.1f\n", $2 / 20000 }' "$o"
    done
fi
