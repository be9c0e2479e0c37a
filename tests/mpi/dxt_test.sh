#!/bin/sh
# DXT traces in the MPI job log (CTest mpi_dxt): mpi_dxt_mpiio (dxt_mpiio.c)
# as 2 ranks under LIB, the one job log read with `iolens dxt`.
#
#   dxt_test.sh LIB IOLENS BINDIR
#
# With DXT_ENABLE_IO_TRACE=1: each rank's X_MPIIO segments of dxt.dat are
# exactly dxt_mpiio.c's calls (offsets in bytes, lengths type size × count,
# the individual pointer's writes where it stood), and each rank has X_POSIX
# segments of dxt.dat. With DARSHAN_MOD_ENABLE=DXT_MPIIO alone: the same
# X_MPIIO segments and no X_POSIX one. With DXT_ENABLE_IO_TRACE=1 and
# DARSHAN_DXT_UNALIGNED_IO_TRIGGER=1 (every access must be unaligned): rank 0's
# traces of dxt.dat (two of its four accesses at aligned offsets 0) are
# dropped, X_MPIIO with X_POSIX, and rank 1's (none aligned) kept.
# Jobs start as run.sh starts them (mpirun --oversubscribe, root allowed);
# the sanitizer set-up is ../lib/preload.sh.
set -eu
export LC_ALL=C
[ $# -eq 3 ] || { echo "usage: $0 LIB IOLENS BINDIR" >&2; exit 2; }
lib=$1 iolens=$2 bindir=$3
here=$(cd "$(dirname "$0")" && pwd)
case $iolens in /*) ;; *) iolens=$(pwd)/$iolens ;; esac

fail() {
    echo "FAIL: $*"
    [ ! -f "$t/err" ] || sed 's/^/  stderr: /' "$t/err"
    exit 1
}

command -v mpirun > /dev/null 2>&1 ||
    { echo "mpirun not found: install Open MPI (scripts/install-deps)"; exit 1; }
if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"

t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-mpidxt.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/ompi" "$t/mmap"
export OMPI_MCA_orte_tmpdir_base="${OMPI_MCA_orte_tmpdir_base:-$t/ompi}"
f=$t/d/dxt.dat

# run [VAR=value...]: the job with those settings; its log's `iolens dxt`
# output in $t/dxt.
run() {
    rm -rf "$t/d" "$t/logs"
    mkdir "$t/d" "$t/logs"
    timeout 300 mpirun --oversubscribe -np 2 env -u DXT_ENABLE_IO_TRACE -u DARSHAN_MOD_ENABLE \
        -u IOLENS_MOD_ENABLE -u IOLENS_CONFIG_PATH -u DARSHAN_CONFIG_PATH \
        IOLENS_LOGPATH="$t/logs" IOLENS_MMAP_DIR="$t/mmap" "$@" LD_PRELOAD="$preload" \
        "$bindir/mpi_dxt_mpiio" "$t/d" > "$t/out" 2> "$t/err" || fail "the job failed ($*)"
    grep -qx done "$t/out" || fail "the job did not finish ($*)"
    set -- "$t"/logs/*
    [ $# -eq 1 ] && [ -f "$1" ] || { ls -l "$t/logs"; fail "expected one job log"; }
    "$iolens" dxt --show-incomplete "$1" > "$t/dxt" || fail "iolens dxt rejects the log"
}

# segs KIND: "rank kind segment offset length" of dxt.dat's KIND segments.
segs() {
    awk -v f="$f" -v k="$1" '/^# DXT, file_id:/ { on = ($NF == f) }
        on && $1 == k { print $2, $3, $4, $5, $6 }' "$t/dxt"
}

cat > "$t/want" <<END
0 write 0 0 400
0 write 1 10000 200
0 write 2 10200 200
0 read 0 0 400
1 write 0 1000 400
1 write 1 11000 200
1 write 2 11200 200
1 read 0 1000 400
END

run DXT_ENABLE_IO_TRACE=1
segs X_MPIIO | sort -k1,1n -s > "$t/got"
diff "$t/want" "$t/got" || fail "X_MPIIO segments differ (want < > got)"
for r in 0 1; do
    segs X_POSIX | awk -v r=$r '$1 == r' | grep -q . || fail "rank $r: no X_POSIX segment"
done

run DARSHAN_MOD_ENABLE=DXT_MPIIO
segs X_MPIIO | sort -k1,1n -s > "$t/got"
diff "$t/want" "$t/got" || fail "MOD_ENABLE=DXT_MPIIO: X_MPIIO segments differ (want < > got)"
[ -z "$(segs X_POSIX)" ] || fail "MOD_ENABLE=DXT_MPIIO: X_POSIX segments"

run DXT_ENABLE_IO_TRACE=1 DARSHAN_DXT_UNALIGNED_IO_TRIGGER=1
[ -z "$(segs X_POSIX | awk '$1 == 0')$(segs X_MPIIO | awk '$1 == 0')" ] ||
    fail "DXT_UNALIGNED_IO_TRIGGER=1: rank 0's traces kept"
segs X_MPIIO | awk '$1 == 1' > "$t/got"
grep '^1 ' "$t/want" | diff - "$t/got" || fail "DXT_UNALIGNED_IO_TRIGGER=1: rank 1's X_MPIIO"
segs X_POSIX | awk '$1 == 1' | grep -q . || fail "DXT_UNALIGNED_IO_TRIGGER=1: rank 1's X_POSIX"
echo "PASS"
