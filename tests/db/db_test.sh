#!/bin/sh
# iolens ingest and iolens collect against real databases and a real broker
# (servers.sh starts them in a temporary directory; db_check.py compares).
#
#   db_test.sh IOLENS RUNTIME EVENTS_PROG LOGS CASE BACKEND
#
# BACKEND: sqlite or postgresql. CASE:
#   ingest        every real log of LOGS, a subset first then all (resumed:
#                 only the rest stored), then all again (stored once); rows
#                 against iolens parse; a bad log said in one line, counted,
#                 exit 1, the others stored
#   collect_file  events_prog under the runtime with IOLENS_EVENTS=file:DIR:
#                 every event the runtime sent stored once with its columns;
#                 collect again stores nothing (offsets kept); a second process
#                 and malformed lines added (one with a time out of range):
#                 only the new events stored, each malformed line said and counted
#   collect_mqtt  the lines of a run's events published with mosquitto_pub
#                 (QoS 1) to a broker of the test's: half while collect is
#                 away (the persistent session keeps them), the broker killed
#                 (SIGTERM) and restarted, collect started, the broker
#                 restarted again while collect reads, the other half and a
#                 malformed message published; collect stopped by SIGTERM:
#                 every published event stored once
set -eu
[ $# -eq 6 ] || { echo "usage: $0 IOLENS RUNTIME EVENTS_PROG LOGS CASE BACKEND" >&2; exit 2; }
iolens=$1 runtime=$2 prog=$3 logs=$4 case=$5 backend=$6
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/preload.sh"
sanitizer_preload "$runtime" "$asan_signals"
command -v python3 > /dev/null || { echo "FAIL: python3 is needed (scripts/install-deps)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/iolens-dbtest.XXXXXX")
. "$here/servers.sh"
trap stop_servers EXIT
check() { python3 "$here/db_check.py" "$@"; }
# the value of "key" in a one-line JSON summary
field() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read())[sys.argv[2]])' "$@"; }
expect() { # FILE KEY VALUE
    v=$(field "$1" "$2")
    [ "$v" = "$3" ] || fail "$2 is $v, expected $3 ($(cat "$1"))"
}

case $backend in
    sqlite) url="sqlite:$work/iolens.db" ;;
    postgresql) start_pg; url=$pg_url ;;
    *) fail "unknown backend $backend" ;;
esac

# Run events_prog MODE N under the runtime with its events in $work/ev.
run_prog() {
    mkdir -p "$work/ev" "$work/data" "$work/logs"
    env LD_PRELOAD="$preload" IOLENS_EVENTS="file:$work/ev" IOLENS_LOGPATH="$work/logs" \
        IOLENS_MMAP_DIR="$work" "$prog" "$1" "$work/data" "$2" > /dev/null ||
        fail "events_prog $1 failed"
}

case $case in
ingest)
    nall=$(find "$logs" -name '*.darshan' | wc -l)
    nsub=$(find "$logs/release_logs" -name '*.darshan' | wc -l)
    "$iolens" ingest --db "$url" --json "$logs/release_logs" > "$work/s1.json" || fail "ingest of a subset failed"
    expect "$work/s1.json" stored "$nsub"
    "$iolens" ingest --db "$url" --json -j 3 "$logs" > "$work/s2.json" || fail "ingest failed"
    expect "$work/s2.json" stored $((nall - nsub))
    expect "$work/s2.json" already_stored "$nsub"
    "$iolens" ingest --db "$url" --json -j 1 "$logs" > "$work/s3.json" || fail "ingest again failed"
    expect "$work/s3.json" stored 0
    expect "$work/s3.json" already_stored "$nall"
    n=$(check query "$url" "SELECT COUNT(*) FROM jobs")
    [ "$n" = "$nall" ] || fail "$n jobs stored for $nall logs"
    check ingest "$url" "$iolens"
    # a bad log among good ones: said, counted, exit 1, the good one stored
    mkdir "$work/bad"
    one=$(find "$logs/release_logs" -name '*.darshan' | head -n 1)
    head -c 700 "$one" > "$work/bad/truncated.darshan"
    cp "$one" "$work/bad/copy.darshan"
    rc=0
    "$iolens" ingest --db "$url" --json "$work/bad" > "$work/s4.json" 2> "$work/s4.err" || rc=$?
    [ $rc = 1 ] || fail "ingest with a bad log exited $rc, expected 1"
    expect "$work/s4.json" bad 1
    expect "$work/s4.json" already_stored 1
    [ "$(wc -l < "$work/s4.err")" = 1 ] && grep -q "^iolens ingest: $work/bad/truncated.darshan: " "$work/s4.err" ||
        fail "not one line for the bad log: $(cat "$work/s4.err")"
    echo "ingest: $nall logs stored once, the subset resumed, the bad log said: $(cat "$work/s4.err")"
    ;;
collect_file)
    run_prog known 0
    "$iolens" collect --from "file:$work/ev" --db "$url" --once --json > "$work/c1.json" ||
        fail "collect failed"
    sent=$(python3 -c 'import json,sys; print(sum(len(json.loads(l)["seg"]) for f in sys.argv[1:] for l in open(f)))' "$work"/ev/*.jsonl)
    expect "$work/c1.json" events "$sent"
    check events "$url" "$work"/ev/*.jsonl
    "$iolens" collect --from "file:$work/ev" --db "$url" --once --json > "$work/c2.json"
    expect "$work/c2.json" events 0
    expect "$work/c2.json" messages 0
    # a malformed line and a message without its events in the first file, a new process
    first=$(ls "$work"/ev/*.jsonl | head -n 1)
    printf '%s\n' '{"job_id":1,"rank":0' '{"job_id":1,"rank":0,"ProducerName":"h","module":"POSIX","op":"read","cnt":1,"record_id_str":"5"}' >> "$first"
    # and a message whose time is 1.8e28 s (found by fuzz_collect: its second
    # was cast to an integer out of range)
    python3 -c 'import json, sys
m = json.loads(open(sys.argv[1]).readline()); m["seg"][0]["timestamp"] = 1.8e28
print(json.dumps(m))' "$first" >> "$first"
    run_prog many 3000
    "$iolens" collect --from "file:$work/ev" --db "$url" --once --json > "$work/c3.json" 2> "$work/c3.err" ||
        fail "collect after more events failed"
    expect "$work/c3.json" malformed 3
    grep -q 'timestamp" out of range' "$work/c3.err" || fail "no out-of-range message: $(cat "$work/c3.err")"
    [ "$(grep -c 'malformed message skipped' "$work/c3.err")" = 3 ] ||
        fail "not one line per malformed message: $(cat "$work/c3.err")"
    check events "$url" "$work"/ev/*.jsonl
    cat "$work/c3.err"
    ;;
collect_mqtt)
    start_broker
    run_prog many 20000
    run_prog known 0
    topic=iolens/test/events
    src="mqtt://127.0.0.1:$mq_port/$topic"
    # the persistent session, subscribed: the broker keeps what comes while collect is away
    "$iolens" collect --from "$src" --db "$url" --once --idle 0.2 > /dev/null || fail "collect failed"
    cat "$work"/ev/*.jsonl > "$work/all.jsonl"
    total=$(wc -l < "$work/all.jsonl")
    half=$((total / 2))
    head -n "$half" "$work/all.jsonl" | mosquitto_pub -h 127.0.0.1 -p "$mq_port" -t "$topic" -q 1 -l ||
        fail "mosquitto_pub failed"
    restart_broker # what it kept for collect must survive it
    "$iolens" collect --from "$src" --db "$url" --json --batch 500 > "$work/c.json" 2> "$work/c.err" &
    cpid=$!
    sleep 0.3
    restart_broker # while collect reads what was kept for it
    tail -n +"$((half + 1))" "$work/all.jsonl" | mosquitto_pub -h 127.0.0.1 -p "$mq_port" -t "$topic" -q 1 -l ||
        fail "mosquitto_pub after the restart failed"
    echo '{"not an event": true}' | mosquitto_pub -h 127.0.0.1 -p "$mq_port" -t "$topic" -q 1 -l
    sent=$(python3 -c 'import json,sys; print(sum(len(json.loads(l)["seg"]) for l in open(sys.argv[1])))' "$work/all.jsonl")
    i=0
    until [ "$(check query "$url" "SELECT COUNT(*) FROM events")" = "$sent" ]; do
        i=$((i + 1))
        [ $i -lt 300 ] || { kill "$cpid"; cat "$work/c.err"; fail "events stored: $(check query "$url" "SELECT COUNT(*) FROM events") of $sent after 30 s"; }
        sleep 0.1
    done
    sleep 0.3 # the malformed message comes last
    kill -TERM "$cpid"
    rc=0
    wait "$cpid" || rc=$?
    [ $rc = 0 ] || fail "collect exited $rc after SIGTERM: $(cat "$work/c.err")"
    expect "$work/c.json" malformed 1
    grep -q "lost the broker" "$work/c.err" || fail "collect did not see the broker go: $(cat "$work/c.err")"
    check events "$url" "$work/all.jsonl"
    cat "$work/c.err"
    ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case ($backend)"
