#!/bin/sh
# Cost of the CALLSITES module per 64-byte write (bench/overhead.c's write64):
# libiolens.so with IOLENS_CALLSITES off, on at CALLSITES_DEPTH 1 and on at
# the default depth (4), run interleaved; prints the median ns per call of
# each, and callgrind's instructions per call when valgrind is there. The
# call is made from overhead.c's loop, a few frames below main: at depth 4
# the runtime's own frames and four of the program's are walked per call.
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
configs="off:IOLENS_CALLSITES=0 depth1:IOLENS_CALLSITES_DEPTH=1 depth4:IOLENS_CALLSITES_DEPTH=4"
one() { # one VAR=value: ns per call of one run
    env DARSHAN_EXCLUDE_DIRS=none IOLENS_LOGPATH="$d" IOLENS_CALLSITES=1 "$1" \
        LD_PRELOAD="$lib" "$bench" calls -d "$d" -n "$n" -w 2000 write64 | awk '{ print $2 }'
    rm -f "$d"/*.darshan
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for c in $configs; do : > "$d/${c%%:*}"; done
for r in $(seq "$rounds"); do
    for c in $configs; do one "${c#*:}" >> "$d/${c%%:*}"; done
done
printf 'write64, ns per call (median of %s):' "$rounds"
for c in $configs; do printf ' %s %s' "${c%%:*}" "$(median < "$d/${c%%:*}")"; done
echo
if command -v valgrind > /dev/null 2>&1; then
    for c in $configs; do
        o=$d/cg.${c%%:*}
        env DARSHAN_EXCLUDE_DIRS=none IOLENS_LOGPATH="$d" IOLENS_CALLSITES=1 "${c#*:}" \
            LD_PRELOAD="$lib" valgrind --tool=callgrind --callgrind-out-file="$o" \
            --collect-atstart=no --toggle-collect=bench_loop "$bench" calls -d "$d" -n 20000 \
            -w 2000 write64 > /dev/null 2>&1
        printf 'write64, instructions per call, %s: ' "${c%%:*}"
        awk '/^totals:/ { printf "%.1f\n", $2 / 20000 }' "$o"
    done
fi
