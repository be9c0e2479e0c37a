#!/bin/sh
# Throughput of `iolens collect` into SQLite and PostgreSQL, from the file
# sink's files and through a broker.
#
#   bench/collect.sh [BUILD]
#
# events_prog (tests/runtime) makes BENCH_EVENTS one-byte writes (default
# 200,000) under the runtime with IOLENS_EVENTS=file:DIR: that many events
# and a few more, 64 per message. Then, for each database, from empty:
#   file   collect --from file:DIR --once: all the files read and stored
#   mqtt   the same lines published (QoS 1) while collect is away, kept by
#          the broker for its persistent session, then collect --once
#          --idle 0.2 reads them all (the 0.2 s of quiet at the end are
#          taken off)
# Events/s is events stored over collect's wall time. Servers of the
# benchmark's own (tests/db/servers.sh): PostgreSQL with fsync off, mosquitto.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${BENCH_EVENTS:-200000}
iolens=$build/bin/iolens
prog=$build/tests/runtime/events_prog
[ -x "$prog" ] || { echo "bench: build first (make)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/iolens-bench-collect.XXXXXX")
. "$top/tests/db/servers.sh"
trap stop_servers EXIT

mkdir -p "$work/ev" "$work/data" "$work/logs"
env LD_PRELOAD="$build/lib/libiolens.so" IOLENS_EVENTS="file:$work/ev" \
    IOLENS_LOGPATH="$work/logs" IOLENS_MMAP_DIR="$work" "$prog" many "$work/data" "$n" > /dev/null
cat "$work"/ev/*.jsonl > "$work/all.jsonl"
lines=$(wc -l < "$work/all.jsonl")
start_pg
start_broker

now() { python3 -c 'import time; print(time.monotonic())'; }
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$@"; }

printf '%-11s %-6s %9s %9s %9s\n' database source events seconds events/s
i=0
for db in sqlite postgresql; do
    for src in file mqtt; do
        i=$((i + 1))
        case $db in
            sqlite) url="sqlite:$work/bench$i.db" ;;
            postgresql) as_pg_user "$pgbin/createdb" -h "$work/pg" -p "$pg_port" -U iolens "b$i"
                        url="postgresql://iolens@/b$i?host=$work/pg&port=$pg_port" ;;
        esac
        idle=0
        if [ $src = file ]; then
            from="file:$work/ev"
        else
            from="mqtt://127.0.0.1:$mq_port/bench/$i"
            "$iolens" collect --from "$from" --client-id "bench$i" --db "sqlite:$work/session$i.db" \
                --once --idle 0.1 > /dev/null
            mosquitto_pub -h 127.0.0.1 -p "$mq_port" -t "bench/$i" -q 1 -l < "$work/all.jsonl"
            idle=0.2
        fi
        t0=$(now)
        out=$("$iolens" collect --from "$from" --client-id "bench$i" --db "$url" --once \
              --idle "$idle" --json)
        t1=$(now)
        ev=$(field "$out" events)
        awk -v db="$db" -v src="$src" -v ev="$ev" -v t0="$t0" -v t1="$t1" -v idle="$idle" \
            'BEGIN { s = t1 - t0 - idle; printf "%-11s %-6s %9d %9.2f %9.0f\n", db, src, ev, s, ev / s }'
    done
done
echo "($lines messages of up to 64 events; $(nproc) CPUs)"
