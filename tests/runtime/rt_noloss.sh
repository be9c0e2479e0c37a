#!/bin/sh
# No silent loss: what the runtime says on stderr, without IOLENS_DEBUG, when
# it cannot keep everything, and that a small IOLENS_MODMEM still leaves
# records to every module.
#
#   rt_noloss.sh LIB IOLENS RT_PROG CASE
#
# CASE: modmem (DARSHAN_MODMEM=1 with 3,000 files: POSIX, STDIO and HEATMAP
# all keep records; one line names the setting to raise), modmem64
# (IOLENS_MODMEM=64: nothing dropped, nothing said), fallback (the log
# directory cannot be written: the log goes elsewhere, and one line says
# where), nowhere (no place can be written: one line says where the records
# are kept; with --debug no "log written" follows), unrecordable (a module
# this build cannot record is asked for: one line each). The sanitizer set-up
# is ../lib/preload.sh.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 LIB IOLENS RT_PROG CASE" >&2; exit 2; }
lib=$1 iolens=$2 prog=$3 case=$4
. "$(dirname "$0")/../lib/preload.sh"
sanitizer_preload "$lib"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-noloss.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/d" "$t/logs" "$t/mmap"

fail() { echo "FAIL ($case): $*"; [ ! -f "$t/err" ] || sed 's/^/  stderr: /' "$t/err"; exit 1; }

# run MODE [VAR=value...]: rt_prog MODE under the runtime, in $t/d; its
# stdout in $t/out, its stderr in $t/err.
run() {
    mode=$1; shift
    (cd "$t/d" && exec env -u IOLENS_CONFIG_PATH -u DARSHAN_CONFIG_PATH -u IOLENS_DEBUG \
        IOLENS_LOGPATH="$t/logs" IOLENS_MMAP_DIR="$t/mmap" "$@" LD_PRELOAD="$preload" \
        "$prog" "$mode" "$t/d" > "$t/out" 2> "$t/err") || fail "rt_prog $mode: exit status $?"
    grep -q "^$mode done\$" "$t/out" || fail "rt_prog $mode did not finish"
}

# count MODULE: records of MODULE in the one log under DIR ($1 after shift).
records() {
    awk -v m="$1" '$1 == m' "$t/parse" | awk '{print $3}' | sort -u | wc -l
}

one_log() {
    set -- "$1"/*.darshan
    [ $# -eq 1 ] && [ -f "$1" ] || fail "expected one log in $(dirname "$1")"
    "$iolens" parse --show-incomplete "$1" > "$t/parse" || fail "parse failed"
}

case $case in
modmem)
    run many DARSHAN_MODMEM=1
    one_log "$t/logs"
    for m in POSIX STDIO HEATMAP; do
        n=$(records $m)
        [ "$n" -gt 0 ] || fail "no $m records with DARSHAN_MODMEM=1"
    done
    [ "$(records STDIO)" -ge 3 ] || fail "STDIO lost records: $(records STDIO)"
    [ "$(wc -l < "$t/err")" -eq 1 ] || fail "expected one line on stderr"
    grep -q '^iolens\[[0-9]*\]: POSIX: [0-9]* records kept, at least [0-9]* dropped: raise IOLENS_MODMEM (now 1 MiB) to [0-9]* MiB or more$' "$t/err" ||
        fail "no warning naming IOLENS_MODMEM"
    ;;
modmem64)
    run many IOLENS_MODMEM=64
    one_log "$t/logs"
    [ "$(records POSIX)" -eq 3000 ] || fail "POSIX records: $(records POSIX), expected 3000"
    [ "$(records STDIO)" -ge 3 ] || fail "STDIO records: $(records STDIO)"
    grep -q "incomplete" "$t/parse" && fail "log marked partial"
    [ ! -s "$t/err" ] || fail "stderr not empty"
    ;;
fallback)
    # A directory under a regular file cannot be written, even by root.
    : > "$t/notadir"
    logdir="$t/notadir/logs"
    run files IOLENS_LOGPATH="$logdir"
    [ "$(wc -l < "$t/err")" -eq 1 ] || fail "expected one line on stderr"
    grep -q "^iolens\[[0-9]*\]: cannot write log $logdir/[^ ]*\.darshan (.*); wrote $t/mmap/[^ ]*\.darshan instead\$" "$t/err" ||
        fail "no line saying where the log went"
    one_log "$t/mmap"
    ;;
nowhere)
    : > "$t/notadir"
    run files IOLENS_LOGFILE="$t/notadir/job.darshan" IOLENS_DEBUG=1
    grep -q "cannot write log $t/notadir/job.darshan (.*); records kept in $t/mmap/[^ ]*\.iolmap (iolens recover turns it into a log)\$" "$t/err" ||
        fail "no line saying where the records are"
    grep -q "log written" "$t/err" && fail "'log written' after 'cannot write log'"
    set -- "$t"/mmap/*.iolmap
    [ -f "$1" ] || fail "no record file kept"
    "$iolens" recover -o "$t/rec.darshan" "$1" || fail "the kept record file cannot be recovered"
    ;;
unrecordable)
    run files DARSHAN_MOD_ENABLE=MDHIM
    [ "$(wc -l < "$t/err")" -eq 1 ] || fail "expected one line on stderr"
    grep -q "^iolens\[[0-9]*\]: the MDHIM module was asked for but this build of iolens cannot record it; the log will not have it\$" "$t/err" ||
        fail "no line for MDHIM"
    # Darshan's general switch asks for what this build traces: nothing to say.
    run files DXT_ENABLE_IO_TRACE=1
    [ ! -s "$t/err" ] || fail "DXT_ENABLE_IO_TRACE: stderr not empty"
    ;;
*) fail "unknown case" ;;
esac
