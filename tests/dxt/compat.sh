#!/bin/sh
# LOG_COMPAT=3.5: logs for Darshan 3.5.0's tools (docs/runtime.md, "Reading
# iolens logs with Darshan's tools"), checked with iolens itself, and with
# --reference against those tools.
#
#   compat.sh [--reference DXT_PARSER PYDARSHAN PYTHON] LIB IOLENS BINDIR serial|mpi
#
# serial  the workloads wl_seq_rw, wl_vector_io and wl_random_access under
#         IOLENS_LOG_COMPAT=3.5 have the segments of expected/ (check.sh:
#         offsets, lengths, order as without the setting); dxt_prog seq
#         (runtime/dxt_prog.c) with the config file's `LOG_COMPAT 3.5`, DXT on
#         and DXT_STDIO asked for: DXT_POSIX version 1, every thread id N/A,
#         no DXT_STDIO and one line on stderr saying so, the same segments as
#         without the setting (which gives version 2 and thread ids); the job
#         log of `iolens run` of a tree with a killed process, and the log
#         `iolens recover` makes of a killed process's record file: version 1.
# mpi     the MPI jobs mpi_coll_at and mpi_nonblocking (4 ranks) have the
#         segments of expected/; mpi_coll_at with the setting on rank 1 alone
#         (any rank's holds for the job log): DXT_POSIX 1, DXT_MPIIO 2, every
#         thread id N/A, no DXT_STDIO.
#
# With --reference (Darshan 3.5.0's darshan-dxt-parser, beside it
# darshan-parser and in ../lib libdarshan-util.so; PYDARSHAN the directory
# holding PyDarshan 3.5.0's `darshan` package, PYTHON a python3 with its
# dependencies, cffi, numpy and pandas): the workloads'
# segments are also checked as darshan-dxt-parser prints them, and every log
# above must give exit status 0 with darshan-dxt-parser and the segments
# `iolens dxt` prints (module, rank, kind, number, offset, length, in order),
# exit status 0 and no warning with darshan-parser, and PyDarshan
# (DarshanReport(log, read_all=True)) the same segments in every DXT record.
# In an IOLENS_SANITIZE build the sanitizer runtime goes first in LD_PRELOAD
# (../lib/preload.sh; skipped, 77, without it).
set -eu
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: $0 [--reference DXT_PARSER PYDARSHAN PYTHON] LIB IOLENS BINDIR serial|mpi"
ref_dxt= pydarshan= python=
if [ "${1:-}" = --reference ]; then
    [ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
    ref_dxt=$2 pydarshan=$3 python=$4
    shift 4
fi
[ $# -eq 4 ] || { echo "$usage" >&2; exit 2; }
lib=$1 iolens=$2 bindir=$(cd "$3" && pwd) mode=$4
case $iolens in /*) ;; *) iolens=$(pwd)/$iolens ;; esac
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-compat.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/logs" "$t/mmap" "$t/ompi"
unset IOLENS_CONFIG_PATH DARSHAN_CONFIG_PATH IOLENS_DEBUG DXT_ENABLE_IO_TRACE DARSHAN_MOD_ENABLE \
    IOLENS_MOD_ENABLE IOLENS_LOG_COMPAT IOLENS_LOGFILE DARSHAN_LOGFILE IOLENS_LOGPATH \
    DARSHAN_LOGPATH IOLENS_RUN_DIR IOLENS_RUN_JOBID
export IOLENS_MMAP_DIR="$t/mmap"

fail() { echo "FAIL ($mode): $*"; exit 1; }

if [ -n "$ref_dxt" ]; then
    [ -x "$ref_dxt" ] || fail "$ref_dxt: not an executable"
    ref_parser=$(dirname "$ref_dxt")/darshan-parser
    ref_libdir=$(cd "$(dirname "$ref_dxt")/../lib" && pwd)
    [ -x "$ref_parser" ] || fail "no darshan-parser beside $ref_dxt"
    PYTHONPATH="$pydarshan" LD_LIBRARY_PATH="$ref_libdir" "$python" -c 'import darshan' ||
        fail "$python cannot import PyDarshan from $pydarshan (with $ref_libdir)"
fi

# segments PARSER PROG...: the workloads' segments under the setting, as
# PARSER prints them, against expected/.
segments() {
    parser=$1
    shift
    IOLENS_LOG_COMPAT=3.5 "$here/check.sh" "$preload" "$parser" "$bindir" "$@" > "$t/check" 2>&1 ||
        { cat "$t/check"; fail "segments under IOLENS_LOG_COMPAT=3.5, printed by $parser"; }
}

# normal FILE: the segment lines of darshan-dxt-parser's output FILE
# ("TAG RANK KIND NUMBER OFFSET LENGTH", the log's order).
normal() { awk '$1 ~ /^X_/ { print $1, $2, $3, $4, $5, $6 }' "$1"; }

# pydarshan_segments LOG: the DXT segments PyDarshan reads, in the same form.
pydarshan_segments() {
    PYTHONPATH="$pydarshan" LD_LIBRARY_PATH="$ref_libdir" "$python" - "$1" << 'PY'
import sys
import darshan
report = darshan.DarshanReport(sys.argv[1], read_all=True)
for mod, tag in (("DXT_POSIX", "X_POSIX"), ("DXT_MPIIO", "X_MPIIO")):
    for rec in report.records[mod] if mod in report.records else []:
        for kind in ("write", "read"):
            for i, seg in enumerate(rec[kind + "_segments"]):
                print(tag, rec["rank"], kind, i, seg["offset"], seg["length"])
PY
}

# reference LOG: Darshan 3.5.0's tools read LOG whole.
reference() {
    log=$1
    rc=0
    "$ref_dxt" "$log" > "$t/ref.dxt" 2> "$t/ref.err" || rc=$?
    [ $rc -eq 0 ] || { cat "$t/ref.err"; fail "$log: darshan-dxt-parser exit status $rc"; }
    normal "$t/ref.dxt" > "$t/ref.segs"
    cmp -s "$t/segs" "$t/ref.segs" ||
        { diff "$t/segs" "$t/ref.segs"; fail "$log: darshan-dxt-parser's segments differ (> its)"; }
    "$ref_parser" "$log" > "$t/ref.parse" 2> "$t/ref.err" || rc=$?
    [ $rc -eq 0 ] || { cat "$t/ref.err"; fail "$log: darshan-parser exit status $rc"; }
    [ ! -s "$t/ref.err" ] && ! grep -q "<UNKNOWN> module" "$t/ref.parse" ||
        { cat "$t/ref.err"; grep "<UNKNOWN> module" "$t/ref.parse";
          fail "$log: darshan-parser does not know everything"; }
    pydarshan_segments "$log" > "$t/py.segs" 2> "$t/py.err" ||
        { cat "$t/py.err"; fail "$log: PyDarshan cannot read it"; }
    cmp -s "$t/segs" "$t/py.segs" ||
        { diff "$t/segs" "$t/py.segs"; fail "$log: PyDarshan's segments differ (> its)"; }
}

# check_log LOG MOD=VER...: LOG holds exactly the DXT modules given, each at
# its version; every segment `iolens dxt` prints has thread N/A. Its
# segments in $t/segs. With --reference: reference LOG.
check_log() {
    log=$1
    shift
    "$iolens" parse "$log" > "$t/parse" || fail "$log: iolens parse rejects it"
    sed -n 's/^# \(DXT_[A-Z]*\) module: .*, ver=\([0-9]*\)$/\1=\2/p' "$t/parse" > "$t/vers"
    [ "$(tr '\n' ' ' < "$t/vers")" = "$* " ] ||
        fail "$log: DXT modules $(tr '\n' ' ' < "$t/vers"), expected $*"
    "$iolens" dxt "$log" > "$t/dxt" || fail "$log: iolens dxt rejects it"
    normal "$t/dxt" > "$t/segs"
    [ -s "$t/segs" ] || fail "$log: no segment"
    ! awk '$1 ~ /^X_/ && $NF != "N/A"' "$t/dxt" | grep . ||
        fail "$log: segments with a thread id"
    [ -z "$ref_dxt" ] || reference "$log"
}

# one_log: the one log in $t/logs, moved to $t/NAME.darshan.
one_log() {
    name=$1
    set -- "$t"/logs/*
    [ $# -eq 1 ] && [ -f "$1" ] || fail "expected one log, got: $*"
    mv "$1" "$t/$name.darshan"
}

# dxt_prog MODE DIR [VAR=value...]: runtime/dxt_prog under the runtime, DXT
# on, logs into $t/logs; stderr in $t/err.
dxt_prog() {
    m=$1 d=$2
    shift 2
    mkdir -p "$d"
    env DXT_ENABLE_IO_TRACE=1 IOLENS_LOGPATH="$t/logs" "$@" LD_PRELOAD="$preload" \
        "$bindir/runtime/dxt_prog" "$m" "$d" > "$t/out" 2> "$t/err"
}

case $mode in
serial)
    segments "$iolens dxt" wl_seq_rw wl_vector_io wl_random_access
    [ -z "$ref_dxt" ] || segments "$ref_dxt" wl_seq_rw wl_vector_io wl_random_access

    # The config file's key; DXT_STDIO asked for, and left out.
    printf 'LOG_COMPAT 3.5\n' > "$t/compat.conf"
    dxt_prog seq "$t/d1" IOLENS_CONFIG_PATH="$t/compat.conf" IOLENS_MOD_ENABLE=DXT_STDIO ||
        fail "dxt_prog seq failed"
    one_log seq
    [ "$(grep -c 'DXT_STDIO not recorded: LOG_COMPAT=3.5' "$t/err")" = 1 ] ||
        { cat "$t/err"; fail "not one line on stderr about DXT_STDIO"; }
    check_log "$t/seq.darshan" DXT_POSIX=1
    cp "$t/segs" "$t/compat.segs"
    # Without the setting: version 2, thread ids, the same segments.
    dxt_prog seq "$t/d1" || fail "dxt_prog seq failed"
    one_log newest
    "$iolens" parse "$t/newest.darshan" | grep -q '^# DXT_POSIX module: .*, ver=2$' ||
        fail "without LOG_COMPAT: not DXT_POSIX version 2"
    "$iolens" dxt "$t/newest.darshan" > "$t/dxt"
    ! awk '$1 ~ /^X_/ && $NF !~ /^[1-9][0-9]*$/' "$t/dxt" | grep . ||
        fail "without LOG_COMPAT: segments without a thread id"
    normal "$t/dxt" | cmp -s - "$t/compat.segs" ||
        fail "the segments differ with and without LOG_COMPAT=3.5"

    # iolens run: a tree whose first process is killed (recovered from its
    # record file) and whose second writes its log; one job log of both.
    mkdir "$t/d2" "$t/d3"
    (cd "$t" && env ${asan:+LD_PRELOAD=$asan} IOLENS_LOG_COMPAT=3.5 DXT_ENABLE_IO_TRACE=1 \
        "$iolens" run --lib "$lib" -d "$t/logs" sh -c \
        "'$bindir/runtime/dxt_prog' kill '$t/d2'; '$bindir/runtime/dxt_prog' seq '$t/d3'" \
        > "$t/out" 2>&1) || { cat "$t/out"; fail "iolens run failed"; }
    one_log run
    check_log "$t/run.darshan" DXT_POSIX=1
    grep -q "^# nprocs: 2$" "$t/parse" || fail "iolens run: not a job log of 2 processes"
    grep -q "^X_POSIX 1 write 0 8192 4096$" "$t/segs" || fail "iolens run: rank 1's b.dat"

    # iolens recover of a killed process's record file.
    dxt_prog kill "$t/d4" IOLENS_LOG_COMPAT=3.5 && fail "dxt_prog kill was not killed"
    set -- "$t"/mmap/*.iolmap
    [ $# -eq 1 ] && [ -f "$1" ] || fail "expected one record file, got: $*"
    "$iolens" recover -o "$t/recovered.darshan" "$1" > /dev/null || fail "iolens recover failed"
    check_log "$t/recovered.darshan" DXT_POSIX=1
    ;;
mpi)
    segments "$iolens dxt" mpi_coll_at mpi_nonblocking
    [ -z "$ref_dxt" ] || segments "$ref_dxt" mpi_coll_at mpi_nonblocking

    command -v mpirun > /dev/null 2>&1 ||
        fail "mpirun not found: install Open MPI (scripts/install-deps)"
    [ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    mkdir "$t/d"
    # The setting on rank 1 only: the job log follows it.
    (cd "$t/d" && timeout "${MPI_WL_TIMEOUT:-300}" ${MPIEXEC:-mpirun --oversubscribe} -np 4 \
        env DXT_ENABLE_IO_TRACE=1 IOLENS_MOD_ENABLE=DXT_STDIO IOLENS_LOGPATH="$t/logs" \
        OMPI_MCA_orte_tmpdir_base="$t/ompi" PRELOAD="$preload" sh -c \
        '[ "$OMPI_COMM_WORLD_RANK" != 1 ] || export IOLENS_LOG_COMPAT=3.5
         LD_PRELOAD=$PRELOAD exec "$0" "$@"' "$bindir/mpi/mpi_coll_at" "$t/d" \
        < /dev/null > "$t/out" 2>&1) || { cat "$t/out"; fail "mpi_coll_at failed"; }
    one_log mpi
    check_log "$t/mpi.darshan" DXT_POSIX=1 DXT_MPIIO=2
    grep -q "^X_MPIIO 3 write 0 " "$t/segs" || fail "no DXT_MPIIO segment of rank 3"
    ;;
*) fail "unknown mode" ;;
esac
echo "ok: $mode${ref_dxt:+ (and Darshan 3.5.0's darshan-dxt-parser, darshan-parser, PyDarshan)}"
