#!/bin/sh
# Live events: what an event adds on the application's thread, and how many
# events per second one process gets into the file sink.
#
#   bench/events.sh [BASE_LIB]
#
# BASE_LIB: a libiolens.so without events (e.g. built from the commit before
# them) for the events-off instruction count. Needs build/ (make), valgrind.
# BENCH_ROUNDS (default 7) interleaved rounds of `overhead calls write`, events
# off then on, medians; BENCH_N events for the throughput run (default 120000,
# within one ring: more than 131072 in one burst drops by design).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/build/lib/libiolens.so bench=$root/build/bench/overhead
prog=$root/build/tests/runtime/events_prog
rounds=${BENCH_ROUNDS:-7} n=${BENCH_N:-120000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iolens-events-bench.XXXXXX") # not /dev/shm: excluded
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/d" "$tmp/ev" "$tmp/logs"
export IOLENS_LOGPATH="$tmp/logs"

cg() { # cg LIB [VAR=value...]: instructions per write in bench_loop
    l=$1; shift
    env "$@" LD_PRELOAD="$l" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
        --collect-atstart=no --toggle-collect=bench_loop "$bench" calls -d "$tmp/d" \
        -n 20000 -w 2000 write64 > /dev/null 2>&1
    awk '/^totals:/ { printf "%.0f\n", $2 / 20000 }' "$tmp/cg"
}
echo "Instructions per 64 B write on the application's thread (callgrind, 20000 calls)"
echo "  none:       $(cg "")"
[ $# -lt 1 ] || echo "  base (no events code): $(cg "$1")"
echo "  events off: $(cg "$lib")"
echo "  events on:  $(cg "$lib" IOLENS_EVENTS="file:$tmp/ev")"
rm -f "$tmp"/ev/*

echo "ns per 64 B write, medians of $rounds interleaved rounds (overhead calls write64)"
for i in $(seq "$rounds"); do
    LD_PRELOAD=$lib "$bench" calls -d "$tmp/d" write64 | awk '{ print "off", $2 }'
    LD_PRELOAD=$lib IOLENS_EVENTS="file:$tmp/ev" "$bench" calls -d "$tmp/d" write64 |
        awk '{ print "on", $2 }'
    rm -f "$tmp"/ev/*
done > "$tmp/ns"
for k in off on; do
    printf '  events %-3s %s\n' "$k" "$(awk -v k=$k '$1 == k { print $2 }' "$tmp/ns" | sort -n |
        awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
done

echo "File sink: $n one-byte writes, then exit (all must be stored)"
s=$(date +%s.%N)
LD_PRELOAD=$lib IOLENS_EVENTS="file:$tmp/ev" "$prog" many "$tmp/d" "$n" > /dev/null
e=$(date +%s.%N)
got=$(cat "$tmp"/ev/* | /usr/bin/python3 -c '
import json, sys
print(sum(len(m["seg"]) for m in map(json.loads, sys.stdin) if m["op"] == "write"))')
echo "  stored $got write events of $n in $(echo "$e - $s" | bc) s (process start to end)"
echo "  events/s into the sink, at least: $(echo "$got / ($e - $s)" | bc)"
