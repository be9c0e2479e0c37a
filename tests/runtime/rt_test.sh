#!/bin/sh
# Run rt_prog MODE under the runtime and check the logs it leaves.
#
#   rt_test.sh LIB IOLENS RT_PROG RT_CHECK MODE
#
# LIB is libiolens.so, IOLENS the iolens command (for parse and recover).
# Each log must also parse with `iolens parse`. In an IOLENS_SANITIZE build
# (IOLENS_TEST_SANITIZE=ON) the sanitizer runtime must be loaded before the
# preloaded library: it is found with the compiler (IOLENS_TEST_CC) and put
# first in LD_PRELOAD (../lib/preload.sh); without it the test is skipped (exit 77).
set -eu
[ $# -eq 5 ] || { echo "usage: $0 LIB IOLENS RT_PROG RT_CHECK MODE" >&2; exit 2; }
lib=$1 iolens=$2 prog=$3 check=$4 mode=$5
. "$(dirname "$0")/../lib/preload.sh"
sanitizer_preload "$lib" "$asan_signals"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-rt.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/d" "$t/logs" "$t/mmap"

want=0
case $mode in
    segv | sigchain) want=139 ;;
    kill) want=137 ;;
esac
# chdir: the same places named relative to the directory the program starts in
logpath=$t/logs mmapdir=$t/mmap
[ "$mode" != chdir ] || logpath=../logs mmapdir=../mmap
status=0
if [ "$mode" = live ]; then
    # `iolens recover` refuses the record file of a process still running,
    # and leaves it to the process, which writes the only log at its end.
    mkfifo "$t/in"
    (
        cd "$t/d"
        exec env LD_PRELOAD="$preload" IOLENS_LOGPATH="$logpath" IOLENS_MMAP_DIR="$mmapdir" \
            "$prog" "$mode" "$t/d" < "$t/in" > "$t/out" 2>&1
    ) &
    pid=$!
    exec 3> "$t/in"
    for _ in $(seq 100); do
        [ -f "$t/d/basic.dat" ] && [ "$(stat -c %s "$t/d/basic.dat")" = 1000 ] && break
        sleep 0.1
    done
    set -- "$t"/mmap/*.iolmap
    rc=0
    "$iolens" recover --remove -o "$t/logs" "$1" > /dev/null 2> "$t/recover.err" || rc=$?
    exec 3>&-
    wait "$pid" || status=$?
    if [ "$rc" != 1 ] || ! grep -q 'is still running' "$t/recover.err"; then
        echo "recover of a running process's file: status $rc, $(cat "$t/recover.err")"
        exit 1
    fi
else
    (
        cd "$t/d"
        exec env LD_PRELOAD="$preload" IOLENS_LOGPATH="$logpath" IOLENS_MMAP_DIR="$mmapdir" \
            "$prog" "$mode" "$t/d" > "$t/out" 2>&1
    ) || status=$?
fi
if [ "$status" != "$want" ]; then
    echo "rt_prog $mode: exit status $status, expected $want"
    cat "$t/out"
    exit 1
fi

if [ "$mode" = kill ]; then
    # The killed process left its record file; recover it.
    set -- "$t"/mmap/*.iolmap
    [ -f "$1" ] || { echo "no record file left behind"; exit 1; }
    # Every verb reads a record file as its log, which is not partial.
    "$iolens" parse "$1" > "$t/raw.txt" || { echo "parse of the raw record file failed"; exit 1; }
    grep -q "^# metadata: iolens_killed = 1" "$t/raw.txt" ||
        { echo "parse of the raw record file: no iolens_killed"; cat "$t/raw.txt"; exit 1; }
    "$iolens" recover --remove -o "$t/logs" "$@" > /dev/null
    # Named like every log: <user>_<exe>_id<jobid>-<pid>_..._<n>.darshan
    ls "$t/logs" | grep -Eq '^[^_]+_rt_prog_id[0-9]+-[0-9]+_[0-9]+-[0-9]+-[0-9]+-[0-9]+_1\.darshan$' ||
        { echo "recovered log not named by Darshan's rule:"; ls "$t/logs"; exit 1; }
fi
if ls "$t"/mmap/*.iolmap > /dev/null 2>&1; then
    echo "record files left behind:"
    ls -l "$t/mmap"
    exit 1
fi

set --
for log in "$t"/logs/*.darshan; do
    [ -f "$log" ] || continue
    perm=$(stat -c %a "$log")
    [ "$perm" = 400 ] || { echo "$log: mode $perm, expected 400"; exit 1; }
    "$iolens" parse --show-incomplete "$log" > /dev/null || { echo "$log: parse failed"; exit 1; }
    set -- "$@" "$log"
done
"$check" "$mode" "$t/d" "$@"
if [ "$mode" = threads ]; then
    # The threads' first lines to stdout come all at once: none may go
    # uncounted while the stream's record is being made.
    n=$("$iolens" parse "$1" | awk '$4 == "STDIO_WRITES" && $6 == "<STDOUT>" { print $5 }')
    [ "$n" = 2000 ] || { echo "<STDOUT> writes: '$n', expected 2000"; exit 1; }
fi
echo "ok: $mode ($# logs)"
