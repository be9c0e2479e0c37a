#!/bin/sh
# iolens serve over a database of a real run's live events (docs/serve.md):
#
#   serve_test.sh IOLENS RUNTIME WRITER OUT BACKEND [NP]
#
# WRITER (paced_writer.c) runs ~2.5 s under the runtime with IOLENS_EVENTS=
# file:DIR while iolens collect follows DIR into the database (BACKEND:
# sqlite, or postgresql on a server the test starts, tests/db/servers.sh) and
# iolens serve serves it: the job must show live and its events grow between
# two answers. Then every endpoint is checked against the database
# (check_serve.py api), the HTTP rules (read-only, 404/400/403), the page in
# headless Chromium (no console message; jobs, series by file, latency and
# slowest files as the API says; names shown as text), and the verb's errors
# (bad --db: one line, exit 1; usage: exit 2; SIGTERM: exit 0). Keeps OUT/
# BACKEND.png (screenshot), .dom.html and .console.txt.
#
# With NP, WRITER is an MPI program (paced_mpi.c) run as NP ranks by
# mpirun --oversubscribe, without a scheduler's job id: the runtime gives
# every rank rank 0's at MPI_Init, the job id of the job's log. The database
# must hold ONE job of NP processes under that id, its series by rank one per rank with that rank's
# MPI-IO bytes, its latency the MPI-IO events too; the page is checked with its
# series by rank. Keeps OUT/mpi-BACKEND.png, ...
set -eu
[ $# -eq 5 ] || [ $# -eq 6 ] || { echo "usage: $0 IOLENS RUNTIME WRITER OUT BACKEND [NP]" >&2; exit 2; }
iolens=$1 runtime=$2 writer=$3 out=$4 backend=$5 np=${6:-}
rounds=6
program=$(basename "$writer")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/preload.sh"
sanitizer_preload "$runtime" "$asan_signals"
command -v python3 > /dev/null || { echo "FAIL: python3 is needed (scripts/install-deps)"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "FAIL: chromium not found (scripts/install-deps)"; exit 1; }
if [ -n "$np" ]; then
    command -v mpirun > /dev/null 2>&1 ||
        { echo "FAIL: mpirun not found: install Open MPI (scripts/install-deps)"; exit 1; }
    [ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Output files and the page's first series: by rank for an MPI job.
tag=${np:+mpi-}$backend
by=${np:+rank}
by=${by:-file}
work=$(mktemp -d "${TMPDIR:-/tmp}/iolens-servetest.XXXXXX")
mkdir -p "$out"
. "$here/../db/servers.sh"
spid= cpid=
cleanup() {
    [ -z "$spid" ] || kill "$spid" 2> /dev/null || true
    [ -z "$cpid" ] || kill "$cpid" 2> /dev/null || true
    stop_servers
}
trap cleanup EXIT
check() { python3 "$here/check_serve.py" "$@"; }

case $backend in
    sqlite) url="sqlite:$work/iolens.db" ;;
    postgresql) start_pg; url=$pg_url ;;
    *) fail "unknown backend $backend" ;;
esac

# The verb's errors: one line and exit 1 for a database it cannot read, 2 for usage.
one_line() { # STATUS WHAT ARGS...
    want=$1 what=$2
    shift 2
    rc=0
    "$iolens" serve "$@" > "$work/cli.out" 2> "$work/cli.err" || rc=$?
    [ "$rc" = "$want" ] || fail "$what: exit $rc, expected $want: $(cat "$work/cli.err")"
    [ "$(wc -l < "$work/cli.err")" = 1 ] && grep -q '^iolens serve: ' "$work/cli.err" ||
        fail "$what: stderr is not one 'iolens serve:' line: $(cat "$work/cli.err")"
}
one_line 1 "missing database" --db "sqlite:$work/none.db"
echo "not a database" > "$work/text.db"
one_line 1 "not a database" --db "sqlite:$work/text.db"
one_line 2 "unknown option" --nope
one_line 2 "bad --live" --live x
[ ! -e "$work/none.db" ] || fail "serve created the database it was given"
[ "$backend" = sqlite ] || one_line 1 "no PostgreSQL server" --db "postgresql://iolens@/none?host=$work/none"

# An empty database, made by collect; then collect follows the events' files.
mkdir -p "$work/ev" "$work/data" "$work/logs"
"$iolens" collect --from "file:$work/ev" --db "$url" --once > /dev/null || fail "collect --once failed"
"$iolens" collect --from "file:$work/ev" --db "$url" --interval 0.2 > "$work/collect.out" 2>&1 &
cpid=$!
"$iolens" serve --db "$url" --listen 127.0.0.1:0 --live 15 > "$work/serve.out" 2> "$work/serve.err" &
spid=$!
i=0
until grep -q 'listening on' "$work/serve.out"; do
    i=$((i + 1))
    [ $i -lt 100 ] && kill -0 "$spid" 2> /dev/null ||
        fail "serve did not start: $(cat "$work/serve.out" "$work/serve.err")"
    sleep 0.1
done
one_line 1 "address in use" --db "$url" --listen "$(sed -n 's|^iolens serve: listening on http://\([^/]*\)/$|\1|p' "$work/serve.out")"
one_line 2 "not HOST:PORT" --db "$url" --listen 127.0.0.1
base=$(sed -n 's|^iolens serve: listening on \(http://[^/]*\)/$|\1|p' "$work/serve.out")
[ -n "$base" ] || fail "serve said: $(cat "$work/serve.out")"

# The page of JOB, polling every 200 ms, series by $by.
page_of() {
    echo "$base/?poll=200&by=$by#job=$(python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1")"
}
# Headless Chromium on a profile of its own, its console into $console.
. "$here/../lib/chromium.sh"
browse() {
    chromium_run "$browser" "$work/profile" "$console" --virtual-time-budget=3000 "$@"
}

if [ -n "$np" ]; then
    # Open MPI's own allocations outlive the program's end: no leak check.
    timeout 60 mpirun --oversubscribe -np "$np" env LD_PRELOAD="$preload" \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        IOLENS_EVENTS="file:$work/ev" IOLENS_LOGPATH="$work/logs" IOLENS_MMAP_DIR="$work" \
        "$writer" "$work/data" $rounds 500 > "$work/writer.out" 2>&1 &
else
    env LD_PRELOAD="$preload" IOLENS_EVENTS="file:$work/ev" IOLENS_LOGPATH="$work/logs" \
        IOLENS_MMAP_DIR="$work" "$writer" "$work/data" $rounds 500 > "$work/writer.out" 2>&1 &
fi
wpid=$!
job=$(check live "$base" "$program") || { kill "$wpid"; echo "$job"; exit 1; }
# the page while it runs (--live 15 keeps it live a while after its last event:
# Chromium can take seconds to start on a loaded machine, ASan builds too)
console=$out/$tag.console.txt
: > "$console"
browse --dump-dom "$(page_of "$job")" > "$out/$tag.live.dom.html" || fail "Chromium failed (status $?) on the live page"
check livedom "$out/$tag.live.dom.html" "$job"
wait "$wpid" || fail "$program under the runtime failed: $(cat "$work/writer.out")"
if [ -n "$np" ]; then
    jobid=$("$iolens" parse "$work"/logs/*.darshan | sed -n 's/^# jobid: //p')
    [ "$job" = "events:$jobid" ] || fail "the MPI job is $job, not its log's job events:$jobid"
fi
kill -TERM "$cpid"
rc=0
wait "$cpid" || rc=$?
cpid=
[ $rc = 0 ] || fail "collect exited $rc: $(cat "$work/collect.out")"
# what the follower had not read yet
"$iolens" collect --from "file:$work/ev" --db "$url" --once > /dev/null || fail "collect --once failed"

check api "$base" "$url" "$job" ${np:+"$np" $rounds}
check http "$base"

# The page, as a browser shows it, polling every 200 ms.
page=$(page_of "$job")
browse --dump-dom "$page" > "$out/$tag.dom.html" || fail "Chromium failed (status $?) on the page"
browse --screenshot="$(realpath "$out")/$tag.png" --window-size=1280,1800 --hide-scrollbars \
    "$page" > /dev/null || fail "Chromium failed (status $?) on the screenshot"
[ -s "$out/$tag.png" ] || fail "no screenshot"
if grep -q ':CONSOLE' "$console"; then
    grep ':CONSOLE' "$console" | head -n 5
    fail "console messages (above)"
fi
check dom "$out/$tag.dom.html" "$base" "$job" "$by" ${np:+"$np"}

kill -TERM "$spid"
rc=0
wait "$spid" || rc=$?
spid=
[ $rc = 0 ] || fail "serve exited $rc after SIGTERM: $(cat "$work/serve.err")"
[ ! -s "$work/serve.err" ] || fail "serve wrote on stderr: $(cat "$work/serve.err")"
echo "ok: serve (${np:+MPI job of $np ranks, }$backend); screenshot $out/$tag.png"
