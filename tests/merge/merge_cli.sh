#!/bin/sh
# iolens merge and iolens diff on real logs (CTest merge_cli, diff_cli).
#
#   merge_cli.sh IOLENS DIFF_EDIT LIB LOGS MODE
#
# IOLENS     the iolens command
# DIFF_EDIT  tests/merge/diff_edit (a changed copy and the lines diff must print)
# LIB        libiolens.so, for the non-MPI processes of mode shared
# LOGS       the folder of real logs (tests/data/darshan-logs, index.tsv)
# MODE       logs    every real log: diff against itself says nothing and
#                    exits 0 (--json: equal), merge of it alone gives it back
#                    (diff exits 0), and a changed copy (diff_edit) gives
#                    exactly the lines diff_edit expects, exit 1 (--json: not
#                    equal, one item per line); usage errors exit 2
#            shared  darshan#401: two processes of one batch job (the same
#                    job id) append to one file with tee (stdio), 100 and 200
#                    bytes, each with its own log; merge combines their STDIO
#                    (and POSIX) records into one rank -1 record each: 300
#                    bytes and both processes' opens and writes
#                    (darshan-merge keeps one process's record); a third log
#                    of another job is refused
set -eu
export LC_ALL=C
[ $# -eq 5 ] || { echo "usage: $0 IOLENS DIFF_EDIT LIB LOGS MODE" >&2; exit 2; }
iolens=$1 diff_edit=$2 lib=$3 logs=$4 mode=$5
here=$(cd "$(dirname "$0")" && pwd)
fail() {
    echo "FAIL: $*"
    exit 1
}
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-mergecli.XXXXXX")
trap 'rm -rf "$t"' EXIT

case $mode in
logs)
    [ -f "$logs/index.tsv" ] || fail "$logs/index.tsv not found"
    n=0
    for l in $(find "$logs" -name '*.darshan' | sort); do
        n=$((n + 1))
        st=0
        "$iolens" diff "$l" "$l" > "$t/out" 2> "$t/err" || st=$?
        [ $st -eq 0 ] && [ ! -s "$t/out" ] || { head "$t/out" "$t/err"; fail "diff $l $l: exit $st"; }
        [ "$("$iolens" diff --json "$l" "$l")" = '{"differences": [], "equal": true}' ] ||
            fail "diff --json $l $l: not equal"
        rm -f "$t/m.darshan"
        "$iolens" merge "$t/m.darshan" "$l" 2> "$t/err" || { cat "$t/err"; fail "merge of $l failed"; }
        st=0
        "$iolens" diff "$l" "$t/m.darshan" > "$t/out" 2>> "$t/err" || st=$?
        [ $st -eq 0 ] || { head "$t/out"; fail "merge of $l alone is not $l (diff exit $st)"; }
    done
    [ $n -ge 10 ] || fail "only $n logs in $logs"
    # A changed copy: exactly the expected lines.
    l=$(find "$logs" -name 'runtime_and_dxt_heatmaps_diagonal_write_only.darshan' | head -1)
    [ -n "$l" ] || fail "runtime_and_dxt_heatmaps_diagonal_write_only.darshan not in $logs"
    "$diff_edit" "$l" "$t/edited.darshan" > "$t/want" || fail "diff_edit failed on $l"
    [ "$(wc -l < "$t/want")" -eq 2 ] || fail "diff_edit: expected two lines"
    st=0
    "$iolens" diff "$l" "$t/edited.darshan" > "$t/got" || st=$?
    [ $st -eq 1 ] || fail "diff of a changed copy: exit $st, expected 1"
    diff "$t/want" "$t/got" || fail "diff of a changed copy: lines differ (< expected, > got)"
    st=0
    "$iolens" diff --json "$l" "$t/edited.darshan" > "$t/json" || st=$?
    [ $st -eq 1 ] && grep -q '"equal": false}$' "$t/json" &&
        [ "$(grep -c '{"kind": ' "$t/json")" -eq 2 ] || { cat "$t/json"; fail "diff --json of a changed copy"; }
    if command -v python3 > /dev/null 2>&1; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["differences"]) == 2 and not d["equal"]' "$t/json" ||
            fail "diff --json: not the JSON expected"
    fi
    # Usage and unreadable logs: exit 2, one line.
    st=0; "$iolens" diff "$l" > /dev/null 2>&1 || st=$?
    [ $st -eq 2 ] || fail "diff with one log: exit $st, expected 2"
    st=0; "$iolens" diff "$l" "$t/none.darshan" > /dev/null 2> "$t/err" || st=$?
    [ $st -eq 2 ] && [ "$(wc -l < "$t/err")" -eq 1 ] || fail "diff with a missing log: exit $st"
    st=0; "$iolens" merge "$t/x.darshan" > /dev/null 2>&1 || st=$?
    [ $st -eq 2 ] || fail "merge without logs: exit $st, expected 2"
    st=0; "$iolens" merge "$t/x.darshan" "$t/none.darshan" > /dev/null 2> "$t/err" || st=$?
    [ $st -eq 1 ] && [ "$(wc -l < "$t/err")" -eq 1 ] || fail "merge of a missing log: exit $st"
    echo "PASS: $n real logs: diff against itself equal, merge alone gives it back; a changed copy's lines"
    ;;
shared)
    . "$here/../lib/preload.sh"
    sanitizer_preload "$lib" "$asan_signals"
    mkdir "$t/logs" "$t/w"
    f=$t/w/shared.dat
    # tee (under the runtime; head not): 100 then 200 bytes appended to one
    # file, one process after the other, as steps of a job. (dd is not used:
    # under ASan its aligned_alloc is refused.)
    for n in 100 200; do
        head -c $n /dev/zero | IOLENS_JOBID_ENV=IOLENS_TEST_JOB IOLENS_TEST_JOB=401 \
            IOLENS_LOGPATH="$t/logs" LD_PRELOAD="$preload" tee -a "$f" > /dev/null ||
            fail "tee did not run"
    done
    set -- "$t/logs"/*.darshan
    [ $# -eq 2 ] || fail "expected 2 logs, got $#"
    "$iolens" merge "$t/merged.darshan" "$@" 2> "$t/err" || { cat "$t/err"; fail "merge failed"; }
    "$iolens" parse "$t/merged.darshan" > "$t/p"
    grep -q '^# nprocs: 2$' "$t/p" || fail "merged: nprocs is not 2"
    # Each process's own counts.
    sum() {
        "$iolens" parse "$1" "$2" | awk -v c="$3" -v f="$f" '$4 == c && $6 == f { s += $5 } END { print s + 0 }'
    }
    opens=$(sum "$1" "$2" STDIO_OPENS) writes=$(sum "$1" "$2" STDIO_WRITES)
    [ "$(sum "$1" "$2" STDIO_BYTES_WRITTEN)" = 300 ] && [ "$opens" -ge 2 ] ||
        fail "the processes' logs do not hold 100 + 200 bytes written and an open each"
    for c in "STDIO_BYTES_WRITTEN	300" "STDIO_OPENS	$opens" "STDIO_WRITES	$writes"; do
        grep -q "^STDIO	-1	[0-9]*	$c	$f	" "$t/p" ||
            { grep "$f" "$t/p" | head -20; fail "merged: no rank -1 record of $f with ${c%	*} ${c#*	}"; }
    done
    if grep -q "^\(POSIX\|STDIO\)	[01]	[0-9]*	[A-Z]*_OPENS	.*	$f	" "$t/p"; then
        fail "merged: a rank's own record of $f is left"
    fi
    head -c 1 /dev/zero | IOLENS_JOBID_ENV=IOLENS_TEST_JOB IOLENS_TEST_JOB=402 \
        IOLENS_LOGPATH="$t/w" LD_PRELOAD="$preload" tee -a "$f" > /dev/null || fail "tee did not run"
    other=$(echo "$t/w"/*.darshan)
    st=0
    "$iolens" merge "$t/no.darshan" "$1" "$other" 2> "$t/err" || st=$?
    [ $st -eq 1 ] && [ "$(cat "$t/err")" = "iolens merge: $1 and $other are logs of different jobs (job ids 401 and 402)" ] ||
        { cat "$t/err"; fail "merge of logs of two jobs not refused in one line"; }
    echo "PASS: shared: two processes' records of one file combined (300 bytes, $opens opens)"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
