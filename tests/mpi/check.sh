#!/bin/sh
# Run the MPI workloads (4 ranks each) under a runtime and compare the
# counters of their logs with expected/*.txt.
#
#   check.sh [--reference] LIB PARSER BINDIR [NAME...]
#
# LIB     the runtime each rank preloads (libiolens.so; with --reference, the
#         reference's libdarshan.so built with MPI).
# PARSER  command printing a log as darshan-parser --base does, e.g.
#         "build/bin/iolens parse --base".
# BINDIR  where the mpi_* programs are (build/tests/mpi).
# NAME    workloads to run (default: every expected/*.txt).
#
# Without --reference, a workload passes when its normal form equals the
# expected file with its remarks stripped (normalize.sh --strip): the right
# counts, including where the reference is wrong. With --reference, it must
# equal what the reference prints (normalize.sh --reference). run.sh says how
# the job is started (MPIEXEC, MPI_WL_TIMEOUT, TMPDIR). Prints one line per
# workload and a diff for each failure; exits 1 if any workload failed.
set -eu
export LC_ALL=C

mode=strip
if [ "${1:-}" = "--reference" ]; then
    mode=reference
    shift
fi
[ $# -ge 3 ] || { echo "usage: $0 [--reference] LIB PARSER BINDIR [NAME...]" >&2; exit 2; }
lib=$1 parser=$2 bindir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
    for f in "$here"/expected/*.txt; do
        set -- "$@" "$(basename "$f" .txt)"
    done
fi

# With --reference: Darshan rounds each heatmap bin's share of an access on
# its own, so a sum can be a byte off for every access that straddled a bin
# boundary (which happens when the machine is slow). Two normal forms are
# close when they differ only in HEATMAP_*_BYTES values, each by at most
# HM_SLACK bytes.
HM_SLACK=4
heatmap_close() {
    paste "$1" "$2" | awk -F '\t' -v slack=$HM_SLACK '
    NF == 2 && $1 == "== log" && $2 == "== log" { next }
    NF != 10 { exit 1 }
    {
        for (i = 1; i <= 5; i++) if (i != 4 && $i != $(i + 5)) exit 1
        if ($4 == $9) next
        if ($1 != "HEATMAP") exit 1
        d = $4 - $9; if (d < 0) d = -d
        if (d > slack) exit 1
    }' && [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ]
}

failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iolens-mpicheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
    expected=$here/expected/$name.txt
    "$here/normalize.sh" --$mode "$expected" > "$tmp/want"
    if ! "$here/run.sh" "$lib" "$parser" "$bindir/mpi_$name" > "$tmp/got" 2> "$tmp/err"; then
        echo "FAIL $name (run)"
        cat "$tmp/err"
        failed=1
    elif cmp -s "$tmp/want" "$tmp/got"; then
        echo "ok   $name"
    elif [ $mode = reference ] && heatmap_close "$tmp/want" "$tmp/got"; then
        echo "ok   $name (HEATMAP sums off by at most $HM_SLACK bytes: Darshan's rounding)"
    else
        echo "FAIL $name"
        diff "$tmp/want" "$tmp/got" | head -40 || true
        failed=1
    fi
done
exit $failed
