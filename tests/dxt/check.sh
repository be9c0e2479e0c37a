#!/bin/sh
# Run workloads with DXT on and compare their segments (segments.sh) with
# the expected files expected/PROG.txt (README.md).
#
#   check.sh [--reference] LIB DXT_PARSER BINDIR [PROG...]
#
# BINDIR is the build's tests directory: PROG wl_NAME is BINDIR/workloads/wl_NAME,
# run alone; mpi_NAME is BINDIR/mpi/mpi_NAME, run as 4 ranks. Without PROG,
# every expected file. The expected file without its comment lines and
# remarks is what iolens must print; with --reference, each "#REF v" remark
# puts v in the offset column: what the reference runtime prints.
# Exit status: 0 when all match, 1 otherwise (the differences are printed).
set -eu
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
ref=0
[ "${1:-}" = --reference ] && { ref=1; shift; }
[ $# -ge 3 ] || { echo "usage: $0 [--reference] LIB DXT_PARSER BINDIR [PROG...]" >&2; exit 2; }
lib=$1 parser=$2 bindir=$3
shift 3
[ $# -gt 0 ] || set -- $(cd "$here/expected" && ls *.txt | sed 's/\.txt$//')
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-dxtcheck.XXXXXX")
trap 'rm -rf "$t"' EXIT

# want FILE: the expected segments (reference values with --reference).
want() {
    awk -F '\t' -v ref="$ref" 'BEGIN { OFS = "\t" }
        /^#/ { next }
        {
            if (NF == 8) { if (ref) { split($8, r, " "); $5 = r[2] } NF = 7 }
            print
        }' "$1"
}

failed=0
for prog in "$@"; do
    case $prog in
        mpi_*) run="$here/segments.sh -m"; bin=$bindir/mpi/$prog ;;
        wl_*) run="$here/segments.sh"; bin=$bindir/workloads/$prog ;;
        *) echo "check.sh: $prog: not a wl_ or mpi_ program" >&2; exit 2 ;;
    esac
    exp=$here/expected/$prog.txt
    [ -f "$exp" ] || { echo "check.sh: no $exp" >&2; exit 2; }
    want "$exp" > "$t/want"
    if ! $run "$lib" "$parser" "$bin" > "$t/got"; then
        echo "FAIL: $prog did not run"
        failed=1
    elif ! diff "$t/want" "$t/got" > "$t/diff"; then
        echo "FAIL: $prog: segments differ (< expected, > got)"
        cat "$t/diff"
        failed=1
    else
        echo "ok: $prog"
    fi
done
exit $failed
