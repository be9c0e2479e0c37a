#!/bin/sh
# Live events: what an event adds on the application's thread, how many
# events per second one process gets into the file sink and into a mosquitto
# broker, loss at exit, and the latency from a call to a subscriber.
#
#   bench/events.sh [BASE_LIB]
#
# BASE_LIB: a libiolens.so without events (e.g. built from the commit before
# them) for the events-off instruction count. Needs build/ (make), valgrind,
# mosquitto and mosquitto-clients. BENCH_ROUNDS (default 7) interleaved rounds
# of events_cost (no runtime, events off, events off with an idle thread,
# events on), medians; BENCH_N writes
# per round (default 200000); BENCH_FLAT writes for the sustained rates
# (default 1000000: far more than the rings hold, so the sinks' own pace shows).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/build/lib/libiolens.so bench=$root/build/bench/overhead
cost=$root/build/bench/events_cost prog=$root/build/tests/runtime/events_prog
iolens=$root/build/bin/iolens
rounds=${BENCH_ROUNDS:-7} n=${BENCH_N:-200000} flat=${BENCH_FLAT:-1000000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iolens-events-bench.XXXXXX") # not /dev/shm: excluded
broker=
trap '[ -z "$broker" ] || kill "$broker" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/d" "$tmp/ev" "$tmp/logs"
export IOLENS_LOGPATH="$tmp/logs"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
dropped() { # the iolens_events_dropped of the one log in $tmp/logs, which is removed
    "$iolens" parse "$tmp"/logs/*.darshan | awk -F' = ' '/iolens_events_dropped/ { print $2 }'
    rm -f "$tmp"/logs/*
}
now() { date +%s.%N; }

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
rm -f "$tmp"/ev/* "$tmp"/logs/*

echo "ns per 64 B write, medians of $rounds interleaved rounds of $n (events_cost: the"
echo "application's thread pinned to one CPU; cpu = its own CPU time, wall = elapsed;"
echo "faults = its minor page faults in the loop; idle = events off, an idle thread started)"
for i in $(seq "$rounds"); do
    "$cost" "$tmp/d" "$n" | sed 's/^/none /'
    LD_PRELOAD=$lib "$cost" "$tmp/d" "$n" | sed 's/^/off /'
    LD_PRELOAD=$lib "$cost" "$tmp/d" "$n" idle | sed 's/^/idle /'
    LD_PRELOAD=$lib IOLENS_EVENTS="file:$tmp/ev" "$cost" "$tmp/d" "$n" | sed 's/^/on /'
    rm -f "$tmp"/ev/* "$tmp"/logs/*
done > "$tmp/ns"
for k in none off idle on; do
    eval "cpu_$k=$(awk -v k=$k '$1 == k { print $3 }' "$tmp/ns" | median)"
    eval "wall_$k=$(awk -v k=$k '$1 == k { print $5 }' "$tmp/ns" | median)"
    eval "faults_$k=$(awk -v k=$k '$1 == k { print $7 }' "$tmp/ns" | median)"
    eval "printf '  %-11s cpu %7s  wall %7s  faults %5s\n' \"events $k\" \$cpu_$k \$wall_$k \$faults_$k"
done
echo "  added by an event on the application's thread: cpu $(echo "$cpu_on - $cpu_off" | bc)" \
     "ns, wall $(echo "$wall_on - $wall_off" | bc) ns; of which libc's multi-threaded" \
     "write (idle - off): cpu $(echo "$cpu_idle - $cpu_off" | bc) ns"

count_file() { # write events of DIR/m in the file sink's files
    cat "$tmp"/ev/* | /usr/bin/python3 -c '
import json, sys
print(sum(len(m["seg"]) for m in map(json.loads, sys.stdin)
          if m["op"] == "write" and m["file"].endswith("/d/m")))'
}

echo "File sink"
s=$(now); LD_PRELOAD=$lib IOLENS_EVENTS="file:$tmp/ev" "$prog" many "$tmp/d" "$flat" > /dev/null
e=$(now); got=$(count_file); drop=$(dropped); rm -f "$tmp"/ev/*
echo "  $flat writes flat out in $(echo "$e - $s" | bc) s: $got stored, $drop dropped;" \
     "sustained $(echo "$got / ($e - $s)" | bc) events/s"
LD_PRELOAD=$lib IOLENS_EVENTS="file:$tmp/ev" "$prog" many "$tmp/d" 100000 > /dev/null
echo "  100,000 writes then exit at once: $(count_file) stored, $(dropped) dropped"
rm -f "$tmp"/ev/*

command -v mosquitto > /dev/null 2>&1 || PATH=$PATH:/usr/sbin
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\nmax_queued_bytes 0\npersistence false\n' \
    "$port" > "$tmp/mosquitto.conf"
mosquitto -c "$tmp/mosquitto.conf" > "$tmp/broker.log" 2>&1 &
broker=$!
sleep 0.5
topic=iolens/bench
# subscribe PROG ARGS...: run it with the mqtt sink while mosquitto_sub
# receives; $tmp/sub gets "RECEIVE_TIME N_WRITE_EVENTS TIMESTAMP..." a message
subscribe() {
    rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"; : > "$tmp/sub"
    mosquitto_sub -h 127.0.0.1 -p "$port" -t "$topic" -q 1 -F '%U %p' > "$tmp/fifo" &
    sub=$!
    /usr/bin/python3 -c '
import json, sys
for line in sys.stdin:
    t, _, p = line.partition(" ")
    if p.strip() == "probe":
        print("probe", flush=True)
        continue
    m = json.loads(p)
    if m["op"] == "write" and m["file"].endswith("/d/m"):
        print(t, len(m["seg"]), *(s["timestamp"] for s in m["seg"]), flush=True)' \
        < "$tmp/fifo" > "$tmp/sub" &
    reader=$!
    until grep -q probe "$tmp/sub"; do
        mosquitto_pub -h 127.0.0.1 -p "$port" -t "$topic" -q 1 -m probe; sleep 0.1
    done
    s=$(now)
    LD_PRELOAD=$lib IOLENS_EVENTS="mqtt://127.0.0.1:$port/$topic" "$@" > /dev/null
    e=$(now)
    sleep 2
    kill "$sub"
    wait "$reader" || true
    got=$(awk '$1 != "probe" { n += $2 } END { print n + 0 }' "$tmp/sub")
}
echo "MQTT sink (mosquitto 127.0.0.1, QoS 1, mosquitto_sub receiving)"
subscribe "$prog" many "$tmp/d" "$flat"
echo "  $flat writes flat out in $(echo "$e - $s" | bc) s: $got received, $(dropped) dropped;" \
     "sustained $(echo "$got / ($e - $s)" | bc) events/s"
subscribe "$prog" many "$tmp/d" 100000
echo "  100,000 writes then exit at once: $got received, $(dropped) dropped"
subscribe "$prog" paced "$tmp/d" 20000
awk '$1 != "probe" { for (i = 3; i <= NF; i++) printf "%.6f\n", $1 - $i }' "$tmp/sub" | sort -n > "$tmp/lat"
echo "  latency call end -> subscriber, 20,000 writes at about 9,000/s: median" \
     "$(awk '{ a[NR] = $1 } END { printf "%.2f ms, p99 %.2f ms", a[int((NR + 1) / 2)] * 1000, a[int(NR * 0.99)] * 1000 }' "$tmp/lat")" \
     "($got received, $(dropped) dropped)"
