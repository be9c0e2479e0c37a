#!/bin/sh
# DXT_POSIX traces: dxt_prog (dxt_prog.c) under the runtime, its log read
# with `iolens dxt` and `iolens parse`.
#
#   rt_dxt.sh LIB IOLENS DXT_PROG CASE
#
# CASE: seq (DXT_ENABLE_IO_TRACE=1: exactly the segments dxt_prog seq made,
# in order, times monotonic and inside the POSIX record's first and last
# read/write timestamps, counts equal to POSIX_READS and POSIX_WRITES),
# enable (each way of switching DXT_POSIX on gives its records), off (no
# DXT_POSIX module without them, even with other DXT settings), partial (IOLENS_DXT_MEM=0.001: 31
# segments kept, the module partial, one line on stderr, POSIX counters
# exact), threads (4 threads, their own files: no segment lost or out of
# order), small and unaligned (DXT_SMALL_IO_TRIGGER / DXT_UNALIGNED_IO_TRIGGER
# in each spelling (config key, IOLENS_ and DARSHAN_ variables): a file's whole trace kept or dropped by its share of
# small / unaligned accesses; both: it must reach both), stdio (DXT_STDIO, an
# iolens module: dxt_prog stdio's exact X_STDIO segments at the STDIO
# module's stream positions, in each MOD_ENABLE spelling; not enabled by
# DXT_ENABLE_IO_TRACE nor by default), recover (a record file read as a log has no DXT_POSIX module). The
# sanitizer set-up is ../lib/preload.sh.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 LIB IOLENS DXT_PROG CASE" >&2; exit 2; }
lib=$1 iolens=$2 prog=$3 case=$4
. "$(dirname "$0")/../lib/preload.sh"
sanitizer_preload "$lib"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-dxt.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/d" "$t/logs" "$t/mmap"

fail() { echo "FAIL ($case): $*"; [ ! -f "$t/err" ] || sed 's/^/  stderr: /' "$t/err"; exit 1; }

# run MODE [VAR=value...]: dxt_prog MODE under the runtime (logs in $t/logs,
# emptied first); stdout in $t/out, stderr in $t/err; the log's `iolens dxt`
# output in $t/dxt, its `iolens parse` output in $t/parse.
run() {
    mode=$1; shift
    rm -f "$t"/logs/*
    env -u IOLENS_CONFIG_PATH -u DARSHAN_CONFIG_PATH -u IOLENS_DEBUG -u DXT_ENABLE_IO_TRACE \
        -u DARSHAN_MOD_ENABLE -u IOLENS_MOD_ENABLE IOLENS_LOGPATH="$t/logs" \
        IOLENS_MMAP_DIR="$t/mmap" "$@" LD_PRELOAD="$preload" "$prog" "$mode" "$t/d" \
        > "$t/out" 2> "$t/err" || fail "dxt_prog $mode: exit status $?"
    grep -qx "$mode done" "$t/out" || fail "dxt_prog $mode did not finish"
    set -- "$t"/logs/*.darshan
    [ $# -eq 1 ] && [ -f "$1" ] || fail "expected one log"
    log=$1
    "$iolens" parse "$log" > "$t/parse" || fail "iolens parse rejects the log"
    "$iolens" dxt --show-incomplete "$log" > "$t/dxt" || fail "iolens dxt rejects the log"
}

# segs FILE: "kind offset length" of FILE's segments, in the log's order.
segs() {
    awk -v f="$1" '/^# DXT, file_id:/ { on = ($NF == f) }
        on && $1 == "X_POSIX" { print $3, $5, $6 }' "$t/dxt"
}

# counter FILE NAME: a POSIX counter of FILE.
counter() {
    awk -v f="$1" -v c="$2" '$1 == "POSIX" && $4 == c && $6 == f { print $5 }' "$t/parse"
}

# check_times FILE: each segment ends after it starts, starts no earlier than
# the one before of its kind, and lies inside the POSIX record's first and
# last read/write times (the log prints 4 decimals: compared to 1e-4).
check_times() {
    f=$1
    first=$(counter "$f" POSIX_F_WRITE_START_TIMESTAMP)
    r0=$(counter "$f" POSIX_F_READ_START_TIMESTAMP)
    last=$(counter "$f" POSIX_F_WRITE_END_TIMESTAMP)
    r1=$(counter "$f" POSIX_F_READ_END_TIMESTAMP)
    awk -v f="$f" -v w0="$first" -v r0="$r0" -v w1="$last" -v r1="$r1" '
        /^# DXT, file_id:/ { on = ($NF == f) }
        on && $1 == "X_POSIX" {
            lo = ($3 == "write") ? w0 : r0; hi = ($3 == "write") ? w1 : r1
            if ($8 < $7) { print "ends before it starts: " $0; bad = 1 }
            if (($3 in prev) && $7 < prev[$3]) { print "out of order: " $0; bad = 1 }
            if ($7 < lo - 1e-4 || $8 > hi + 1e-4) { print "outside [" lo ", " hi "]: " $0; bad = 1 }
            prev[$3] = $7; n++
        }
        END { exit bad || n == 0 }' "$t/dxt" || fail "times of $f"
}

# has_dxt: the log holds a DXT_POSIX module.
has_dxt() { grep -q '^# DXT_POSIX module: ' "$t/parse"; }

case $case in
seq)
    run seq DXT_ENABLE_IO_TRACE=1
    a="$t/d/a.dat" b="$t/d/b.dat"
    [ "$(segs "$a" | tr '\n' ' ')" = "write 0 100 write 100 200 write 1000 50 write 100 30 read 0 100 read 1000 30 " ] ||
        fail "segments of a.dat: $(segs "$a" | tr '\n' ' ')"
    [ "$(segs "$b" | tr '\n' ' ')" = "write 8192 4096 write 0 10 read 8192 4096 " ] ||
        fail "segments of b.dat: $(segs "$b" | tr '\n' ' ')"
    for f in "$a" "$b"; do
        w=$(awk -v f="$f" '/^# DXT, file_id:/ { on = ($NF == f) }
            on && /^# DXT, write_count:/ { gsub(",", ""); print $4, $6 }' "$t/dxt")
        [ "$w" = "$(counter "$f" POSIX_WRITES) $(counter "$f" POSIX_READS)" ] ||
            fail "counts of $f: $w, POSIX: $(counter "$f" POSIX_WRITES) $(counter "$f" POSIX_READS)"
        check_times "$f"
    done
    grep -q "^# DXT, hostname: $(uname -n)\$\|^# DXT, rank: 0, hostname: $(uname -n)\$" "$t/dxt" ||
        fail "no host name $(uname -n)"
    grep -q "incomplete" "$t/dxt" && fail "the log says DXT_POSIX is incomplete"
    ;;
enable)
    printf 'MOD_ENABLE DXT_POSIX\n' > "$t/conf"
    for v in DXT_ENABLE_IO_TRACE=1 DXT_ENABLE_IO_TRACE= DARSHAN_MOD_ENABLE=DXT_POSIX \
             IOLENS_MOD_ENABLE=dxt_posix IOLENS_CONFIG_PATH="$t/conf"; do
        run seq "$v"
        [ "$(segs "$t/d/b.dat" | wc -l)" -eq 3 ] || fail "$v: no DXT_POSIX records"
    done
    ;;
off)
    run seq
    has_dxt && fail "a DXT_POSIX module without DXT enabled"
    run seq IOLENS_DXT_MEM=1 IOLENS_DXT_SMALL_IO_TRIGGER=0.5
    has_dxt && fail "a DXT_POSIX module from DXT settings without DXT enabled"
    ;;
partial)
    run many DARSHAN_MOD_ENABLE=DXT_POSIX IOLENS_DXT_MEM=0.001
    [ "$(segs "$t/d/m.dat" | wc -l)" -eq 31 ] || fail "expected 31 segments kept"
    [ "$(segs "$t/d/m.dat" | awk '{ if ($2 != 8 * (NR - 1) || $3 != 8) print }')" = "" ] ||
        fail "the segments kept are not the first 31"
    "$iolens" dxt "$log" > /dev/null 2> "$t/derr" && fail "iolens dxt does not say the log is partial"
    grep -q "DXT_POSIX module's data is incomplete" "$t/derr" || fail "no incomplete DXT_POSIX"
    [ "$(counter "$t/d/m.dat" POSIX_WRITES)" = 1000 ] || fail "POSIX_WRITES changed"
    [ "$(counter "$t/d/m.dat" POSIX_BYTES_WRITTEN)" = 8000 ] || fail "POSIX_BYTES_WRITTEN changed"
    [ "$(wc -l < "$t/err")" -eq 1 ] &&
        grep -q '^iolens\[[0-9]*\]: DXT_POSIX: 969 segments dropped (the trace memory is full): raise IOLENS_DXT_MEM (now 1 KiB)$' "$t/err" ||
        fail "expected one line naming IOLENS_DXT_MEM"
    ;;
threads)
    run threads IOLENS_MOD_ENABLE=DXT_POSIX
    for i in 0 1 2 3; do
        f="$t/d/t$i.dat"
        segs "$f" | awk '$1 != "write" || $2 != 64 * (NR - 1) || $3 != 64 { bad = 1 }
            END { exit bad || NR != 5000 }' || fail "segments of t$i.dat lost or out of order"
        [ "$(counter "$f" POSIX_WRITES)" = 5000 ] || fail "POSIX_WRITES of t$i.dat"
        check_times "$f"
    done
    ;;
small|unaligned)
    # dxt_prog trig: s.dat all small and 9 of 10 unaligned, l.dat large and
    # aligned, u.dat large and unaligned (needs a file alignment > 1).
    [ "$case" = small ] && kept="s.dat" || kept="s.dat u.dat"
    var=$(echo "$case" | tr a-z A-Z)
    printf 'DXT_%s_IO_TRIGGER 0.5\n' "$var" > "$t/conf"
    for v in "IOLENS_DXT_${var}_IO_TRIGGER=.5" \
             "DARSHAN_DXT_${var}_IO_TRIGGER=0.5" IOLENS_CONFIG_PATH="$t/conf"; do
        run trig DXT_ENABLE_IO_TRACE=1 "$v"
        [ "$(counter "$t/d/u.dat" POSIX_FILE_NOT_ALIGNED)" = 4 ] ||
            fail "u.dat: POSIX_FILE_NOT_ALIGNED $(counter "$t/d/u.dat" POSIX_FILE_NOT_ALIGNED), not 4"
        for f in s.dat l.dat u.dat; do
            n=$(segs "$t/d/$f" | wc -l)
            case " $kept " in
            *" $f "*) [ "$n" -ge 4 ] || fail "$v: the trace of $f was dropped" ;;
            *) [ "$n" -eq 0 ] || fail "$v: the trace of $f was kept" ;;
            esac
            [ "$(counter "$t/d/$f" POSIX_WRITES)" -ge 4 ] || fail "$v: POSIX record of $f"
        done
    done
    # Both set: a trace must reach both (u.dat is not small).
    run trig DXT_ENABLE_IO_TRACE=1 IOLENS_DXT_SMALL_IO_TRIGGER=0.5 IOLENS_DXT_UNALIGNED_IO_TRIGGER=0.5
    [ "$(segs "$t/d/s.dat" | wc -l)" -eq 10 ] || fail "both: s.dat dropped"
    [ "$(segs "$t/d/u.dat" | wc -l)" -eq 0 ] || fail "both: u.dat kept"
    # The threshold is reached at equality: 9 of 10 unaligned at 0.9, not 0.91.
    run trig DXT_ENABLE_IO_TRACE=1 IOLENS_DXT_UNALIGNED_IO_TRIGGER=0.9
    [ "$(segs "$t/d/s.dat" | wc -l)" -eq 10 ] || fail "0.9: s.dat dropped"
    run trig DXT_ENABLE_IO_TRACE=1 IOLENS_DXT_UNALIGNED_IO_TRIGGER=0.91
    [ "$(segs "$t/d/s.dat" | wc -l)" -eq 0 ] || fail "0.91: s.dat kept"
    [ "$(segs "$t/d/u.dat" | wc -l)" -eq 4 ] || fail "0.91: u.dat dropped"
    ;;
stdio)
    # stsegs FILE: "kind offset length" of FILE's X_STDIO segments.
    stsegs() {
        awk -v f="$1" '/^# DXT, file_id:/ { on = ($NF == f) }
            on && $1 == "X_STDIO" { print $3, $5, $6 }' "$t/dxt"
    }
    want="write 0 100 write 100 50 write 50 6 read 20 30 read 0 10 "
    printf 'MOD_ENABLE DXT_STDIO\n' > "$t/conf"
    for v in IOLENS_MOD_ENABLE=DXT_STDIO DARSHAN_MOD_ENABLE=dxt_stdio \
             IOLENS_MOD_ENABLE=POSIX,DXT_STDIO IOLENS_CONFIG_PATH="$t/conf"; do
        run stdio "$v"
        [ "$(stsegs "$t/d/s.txt" | tr '\n' ' ')" = "$want" ] ||
            fail "$v: X_STDIO segments of s.txt: $(stsegs "$t/d/s.txt" | tr '\n' ' ')"
        grep -q '^# DXT_STDIO module data$' "$t/dxt" || fail "$v: no DXT_STDIO banner"
        grep -q '^# DXT_STDIO module: .*ver=1$' "$t/parse" || fail "$v: no DXT_STDIO in the header"
        has_dxt && fail "$v: a DXT_POSIX module with only DXT_STDIO enabled"
        [ -s "$t/err" ] && fail "$v: the runtime wrote to stderr"
    done
    # The counts agree with the STDIO record's.
    w=$(awk '/^# DXT, write_count:/ { gsub(",", ""); print $4, $6 }' "$t/dxt")
    sc() { awk -v c="$1" '$1 == "STDIO" && $4 == c && $6 ~ /s\.txt$/ { print $5 }' "$t/parse"; }
    [ "$w" = "$(sc STDIO_WRITES) $(sc STDIO_READS)" ] || fail "counts $w, STDIO: $(sc STDIO_WRITES) $(sc STDIO_READS)"
    # Darshan's switch enables Darshan's DXT modules only; nothing by default.
    run stdio DXT_ENABLE_IO_TRACE=1
    grep -q 'DXT_STDIO' "$t/parse" && fail "DXT_ENABLE_IO_TRACE enabled DXT_STDIO"
    run stdio
    grep -q 'DXT_STDIO' "$t/parse" && fail "a DXT_STDIO module without it enabled"
    ;;
recover)
    # The record file of a killed process read as a log: its segments were
    # in the process's memory, so no DXT_POSIX module (documented).
    env -u IOLENS_CONFIG_PATH -u DARSHAN_CONFIG_PATH DXT_ENABLE_IO_TRACE=1 \
        IOLENS_LOGPATH="$t/logs" IOLENS_MMAP_DIR="$t/mmap" LD_PRELOAD="$preload" \
        "$prog" kill "$t/d" > /dev/null 2>&1 && fail "dxt_prog kill was not killed"
    set -- "$t"/mmap/*.iolmap
    [ -f "$1" ] || fail "no record file left by a killed process"
    "$iolens" parse "$1" > "$t/parse" || fail "iolens parse rejects the record file"
    grep -q '^POSIX.*POSIX_WRITES.*a\.dat' "$t/parse" || fail "no POSIX record in the record file"
    has_dxt && fail "a DXT_POSIX module in a recovered log"
    ;;
*) fail "unknown case" ;;
esac
echo "ok: $case"
