#!/bin/sh
# Run the MPI workloads (4 ranks each) under a runtime and compare each
# rank's MPI-IO records and heatmap:MPIIO records with expected-rank/*.txt.
#
#   check_mpiio.sh [--reference] LIB PARSER BINDIR [NAME...]
#
# LIB     the runtime each rank preloads (libiolens.so; with --reference, the
#         reference's libdarshan.so built with MPI).
# PARSER  command printing a log as darshan-parser --base does, e.g.
#         "build/bin/iolens parse --base".
# BINDIR  where the mpi_* programs are (build/tests/mpi).
# NAME    workloads to run (default: every expected-rank/*.txt).
#
# expected/*.txt hold shared records (rank -1), which need the shared-record
# reduction; these files hold the same jobs' records before it, one per rank:
# what the reference writes with DARSHAN_DISABLE_SHARED_REDUCTION=1 (set here
# for every run; iolens ignores it). Only the MPI-IO module and its heatmap
# are compared (the POSIX records are expected/*.txt's business). Without
# --reference a workload passes when the filtered normal form equals the file
# with its remarks stripped; with --reference it must equal it too, except
# that a HEATMAP sum may be up to 4 bytes off (Darshan's rounding, see
# README.md). Prints one line per workload and a diff for each failure;
# exits 1 if any workload failed. In an IOLENS_SANITIZE build
# (IOLENS_TEST_SANITIZE=ON) libasan is preloaded before LIB, as in
# runtime_test.sh; without it the check is skipped (exit 77).
set -eu
export LC_ALL=C

mode=iolens
if [ "${1:-}" = "--reference" ]; then
    mode=reference
    shift
fi
[ $# -ge 3 ] || { echo "usage: $0 [--reference] LIB PARSER BINDIR [NAME...]" >&2; exit 2; }
lib=$1 parser=$2 bindir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
    for f in "$here"/expected-rank/*.txt; do
        set -- "$@" "$(basename "$f" .txt)"
    done
fi
export DARSHAN_DISABLE_SHARED_REDUCTION=1

# Open MPI's own allocations outlive MPI_Finalize.
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"
lib=$preload

# The lines of a normal form this check is about.
mpiio_only() {
    awk -F '\t' '$0 == "== log" || $1 == "MPI-IO" || $5 == "heatmap:MPIIO"'
}

# Same lines, HEATMAP sums at most 4 bytes apart.
heatmap_close() {
    [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] && paste "$1" "$2" | awk -F '\t' '
    NF == 2 && $1 == "== log" && $2 == "== log" { next }
    NF != 10 { exit 1 }
    {
        for (i = 1; i <= 5; i++) if (i != 4 && $i != $(i + 5)) exit 1
        if ($4 == $9) next
        if ($1 != "HEATMAP") exit 1
        d = $4 - $9; if (d < 0) d = -d
        if (d > 4) exit 1
    }'
}

failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iolens-mpiio.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
    "$here/normalize.sh" --strip "$here/expected-rank/$name.txt" > "$tmp/want"
    if ! "$here/run.sh" "$lib" "$parser" "$bindir/mpi_$name" > "$tmp/all" 2> "$tmp/err"; then
        echo "FAIL $name (run)"
        cat "$tmp/err"
        failed=1
        continue
    fi
    mpiio_only < "$tmp/all" > "$tmp/got"
    if cmp -s "$tmp/want" "$tmp/got"; then
        echo "ok   $name"
    elif [ $mode = reference ] && heatmap_close "$tmp/want" "$tmp/got"; then
        echo "ok   $name (HEATMAP sums off by at most 4 bytes: Darshan's rounding)"
    else
        echo "FAIL $name"
        diff "$tmp/want" "$tmp/got" | head -40 || true
        failed=1
    fi
done
exit $failed
