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
# DXT_POSIX module without them, even with other DXT settings), partial (IOLENS_DXT_MEM=0.001: one
# chunk, the first 25 to 125 segments kept, the module partial, one line on stderr, POSIX counters
# exact), million (the default DXT_MEM keeps 1,000,000 one-byte writes whole:
# every segment, in order, nothing dropped), threads (16 threads, each on its own file and all on one shared file:
# per thread id, every segment present and in order; 16 threads counted on the
# shared file, 1 on each own file, the same id on both), small and unaligned (DXT_SMALL_IO_TRIGGER / DXT_UNALIGNED_IO_TRIGGER
# in each spelling (config key, IOLENS_ and DARSHAN_ variables): a file's whole trace kept or dropped by its share of
# small / unaligned accesses; both: it must reach both), stdio (DXT_STDIO, an
# iolens module: dxt_prog stdio's exact X_STDIO segments at the STDIO
# module's stream positions, in each MOD_ENABLE spelling; not enabled by
# DXT_ENABLE_IO_TRACE nor by default), recover (dxt_prog kill: seq, then
# SIGKILL; the record file read as a log and the log `iolens recover` writes
# have seq's exact segments, with thread ids), forms (accesses at each edge of
# the trace's one-word form: the segments are exactly the accesses). The
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

# segs FILE [DXT]: "kind offset length" of FILE's segments, in the order of
# the `iolens dxt` output DXT (default $t/dxt).
segs() {
    awk -v f="$1" '/^# DXT, file_id:/ { on = ($NF == f) }
        on && $1 == "X_POSIX" { print $3, $5, $6 }' "${2:-$t/dxt}"
}

# tsegs FILE: "thread offset" of FILE's segments, in the log's order.
tsegs() {
    awk -v f="$1" '/^# DXT, file_id:/ { on = ($NF == f) }
        on && $1 == "X_POSIX" { print $9, $5 }' "$t/dxt"
}

# nthreads FILE: the number of threads `iolens dxt` gives for FILE.
nthreads() {
    awk -v f="$1" '/^# DXT, file_id:/ { on = ($NF == f) }
        on && /^# DXT, number of threads:/ { print $NF }' "$t/dxt"
}

# counter FILE NAME: a POSIX counter of FILE.
counter() {
    awk -v f="$1" -v c="$2" '$1 == "POSIX" && $4 == c && $6 == f { print $5 }' "$t/parse"
}

# check_times FILE: each segment ends after it starts, starts no earlier than
# the one before of its kind and thread, and lies inside the POSIX record's first and
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
            key = $3 " " $9
            if ((key in prev) && $7 < prev[key]) { print "out of order: " $0; bad = 1 }
            if ($7 < lo - 1e-4 || $8 > hi + 1e-4) { print "outside [" lo ", " hi "]: " $0; bad = 1 }
            prev[key] = $7; n++
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
    # One chunk of 127 words: a thread tag (2), then one word per sequential
    # write, five for one the short form cannot hold (a gap of over 2 ms, as
    # a loaded machine may make): 25 to 125 kept.
    kept=$(segs "$t/d/m.dat" | wc -l)
    [ "$kept" -ge 25 ] && [ "$kept" -le 125 ] || fail "expected 25 to 125 segments kept, got $kept"
    [ "$(segs "$t/d/m.dat" | awk '{ if ($2 != 8 * (NR - 1) || $3 != 8) print }')" = "" ] ||
        fail "the segments kept are not the first $kept"
    "$iolens" dxt "$log" > /dev/null 2> "$t/derr" && fail "iolens dxt does not say the log is partial"
    grep -q "DXT_POSIX module's data is incomplete" "$t/derr" || fail "no incomplete DXT_POSIX"
    [ "$(counter "$t/d/m.dat" POSIX_WRITES)" = 1000 ] || fail "POSIX_WRITES changed"
    [ "$(counter "$t/d/m.dat" POSIX_BYTES_WRITTEN)" = 8000 ] || fail "POSIX_BYTES_WRITTEN changed"
    [ "$(wc -l < "$t/err")" -eq 1 ] &&
        grep -q "^iolens\[[0-9]*\]: DXT_POSIX: $((1000 - kept)) segments dropped (the trace memory is full): raise IOLENS_DXT_MEM (now 1 KiB)\$" "$t/err" ||
        fail "expected one line naming IOLENS_DXT_MEM and $((1000 - kept)) segments dropped"
    ;;
forms)
    # Each edge of the trace's one-word form (common/recfile.h), on both
    # sides: the segments are the accesses made, exactly, in order.
    run forms DXT_ENABLE_IO_TRACE=1
    grep -E '^(write|read) ' "$t/out" | awk '$1 == "write"' > "$t/want"
    grep -E '^(write|read) ' "$t/out" | awk '$1 == "read"' >> "$t/want"
    segs "$t/d/f.dat" > "$t/got"
    cmp -s "$t/want" "$t/got" || fail "segments of f.dat differ from the accesses: $(diff "$t/want" "$t/got" | tr '\n' ' ')"
    check_times "$t/d/f.dat"
    ;;
million)
    # The default DXT_MEM holds at least 1,000,000 segments (the issue's floor).
    run million DARSHAN_MOD_ENABLE=DXT_POSIX
    [ ! -s "$t/err" ] || fail "stderr not empty"
    segs "$t/d/million.dat" | awk '$1 != "write" || $2 != NR - 1 || $3 != 1 { bad = 1 }
        END { if (NR != 1000000) { print NR " segments"; bad = 1 }; exit bad }' ||
        fail "million.dat: expected 1,000,000 one-byte segments in order"
    grep -q "incomplete" "$t/dxt" && fail "the log says DXT_POSIX is incomplete"
    ;;
threads)
    run threads IOLENS_MOD_ENABLE=DXT_POSIX
    sh="$t/d/shared.dat"
    [ "$(nthreads "$sh")" = 16 ] || fail "shared.dat: $(nthreads "$sh") threads, not 16"
    [ "$(counter "$sh" POSIX_WRITES)" = 80000 ] || fail "POSIX_WRITES of shared.dat"
    # Per thread id on the shared file: 5000 segments at 64 * (16 * i + k)
    # in order, one k per thread, every k in 0..15; "k thread" lines out.
    tsegs "$sh" | awk '{ n = cnt[$1]++; k = ($2 / 64) % 16
            if (n == 0) kof[$1] = k
            if ($2 != 64 * (16 * n + kof[$1])) { print "thread " $1 " segment " n " at " $2; bad = 1 } }
        END { for (id in cnt) { if (cnt[id] != 5000) { print "thread " id ": " cnt[id]; bad = 1 }
                  seen[kof[id]]++; print "k", kof[id], id }
              for (k = 0; k < 16; k++) if (seen[k] != 1) { print "k " k " seen " seen[k] + 0; bad = 1 }
              exit bad }' > "$t/kids" || { cat "$t/kids"; fail "shared.dat: segments lost or out of order"; }
    check_times "$sh"
    for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
        f="$t/d/t$i.dat"
        segs "$f" | awk '$1 != "write" || $2 != 64 * (NR - 1) || $3 != 64 { bad = 1 }
            END { exit bad || NR != 5000 }' || fail "segments of t$i.dat lost or out of order"
        [ "$(counter "$f" POSIX_WRITES)" = 5000 ] || fail "POSIX_WRITES of t$i.dat"
        [ "$(nthreads "$f")" = 1 ] || fail "t$i.dat: $(nthreads "$f") threads, not 1"
        # Its one thread id is the one whose shared.dat segments are at k = i.
        id=$(tsegs "$f" | awk 'NR == 1 { print $1 }')
        grep -qx "k $i $id" "$t/kids" || fail "t$i.dat's thread $id did not write k = $i of shared.dat"
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
        grep -q '^# DXT_STDIO module: .*ver=2$' "$t/parse" || fail "$v: no DXT_STDIO in the header"
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
    # The record file of a killed process, read as a log and recovered: its
    # segments were stored in the file, up to the kill.
    env -u IOLENS_CONFIG_PATH -u DARSHAN_CONFIG_PATH DXT_ENABLE_IO_TRACE=1 \
        IOLENS_LOGPATH="$t/logs" IOLENS_MMAP_DIR="$t/mmap" LD_PRELOAD="$preload" \
        "$prog" kill "$t/d" > /dev/null 2>&1 && fail "dxt_prog kill was not killed"
    set -- "$t"/mmap/*.iolmap
    [ -f "$1" ] || fail "no record file left by a killed process"
    map=$1
    "$iolens" parse "$map" > "$t/parse" || fail "iolens parse rejects the record file"
    grep -q '^POSIX.*POSIX_WRITES.*a\.dat' "$t/parse" || fail "no POSIX record in the record file"
    "$iolens" recover -o "$t/rec.darshan" "$map" > /dev/null || fail "iolens recover failed"
    for src in "$map" "$t/rec.darshan"; do
        "$iolens" dxt "$src" > "$t/dxt" || fail "iolens dxt rejects $src"
        [ "$(segs "$t/d/a.dat" | tr '\n' ' ')" = "write 0 100 write 100 200 write 1000 50 write 100 30 read 0 100 read 1000 30 " ] ||
            fail "$src: segments of a.dat: $(segs "$t/d/a.dat" | tr '\n' ' ')"
        [ "$(segs "$t/d/b.dat" | tr '\n' ' ')" = "write 8192 4096 write 0 10 read 8192 4096 " ] ||
            fail "$src: segments of b.dat: $(segs "$t/d/b.dat" | tr '\n' ' ')"
        [ "$(tsegs "$t/d/a.dat" | awk '$1 !~ /^[1-9][0-9]*$/' | wc -l)" -eq 0 ] ||
            fail "$src: a segment without a thread id"
        [ "$(nthreads "$t/d/a.dat")" = 1 ] || fail "$src: a.dat not from one thread"
    done
    grep -q '^# metadata: iolens_killed = 1$' "$t/dxt" || fail "the recovered log is not marked killed"
    ;;
*) fail "unknown case" ;;
esac
echo "ok: $case"
