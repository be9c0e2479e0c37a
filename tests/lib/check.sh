#!/bin/sh
# Run workloads under a runtime and compare the normal form of their logs
# with expected files: the core of tests/workloads/check.sh (SUITE
# workloads), tests/mpi/check.sh (mpi) and tests/mpi/check_mpiio.sh (mpiio).
#
#   check.sh SUITE [--reference] LIB PARSER BINDIR [NAME...]
#
# SUITE   workloads: wl_NAME programs, ../workloads/expected/NAME.txt
#         mpi:       mpi_NAME as 4 ranks (run.sh -m), ../mpi/expected/NAME.txt
#         hdf5:      h5_NAME as 4 ranks (h5_serial as one process), ../hdf5/expected/NAME.txt
#         pnetcdf:   pnc_NAME as 4 ranks, ../pnetcdf/expected/NAME.txt
#         mpiio:     mpi_NAME as 4 ranks with DARSHAN_DISABLE_SHARED_REDUCTION=1,
#                    only the MPI-IO and heatmap:MPIIO lines compared, with
#                    ../mpi/expected-rank/NAME.txt
# LIB     the runtime to LD_PRELOAD (libiolens.so; with --reference, the
#         reference's libdarshan.so).
# PARSER  command printing a log as darshan-parser --base does, e.g.
#         "build/bin/iolens parse --base".
# BINDIR  where the programs are (build/tests/workloads, build/tests/mpi).
# NAME    workloads to run (default: every expected file).
#
# Without --reference, a workload passes when its normal form equals the
# expected file with its remarks stripped (normalize.sh --strip): the right
# counts, including where the reference is wrong. With --reference, it must
# equal what the reference prints (normalize.sh --reference; expected-rank
# files have no remarks), which checks that the expected files and their
# remarks still describe the reference; for the MPI suites a HEATMAP sum may
# then be up to 4 bytes off (Darshan's rounding, see ../mpi/README.md).
# Without --reference, the variables in env/NAME (if it exists) are added
# to the workload's environment (run.sh -e): settings iolens needs to do
# what the reference does by default (e.g. IOLENS_MAX_RECORDS=1024); the
# reference runs without them. An expected file whose first line is
# "#FORM brief" is compared with the brief normal form (run.sh -b).
# Prints one line per workload and a diff for each failure; exits 1 if any
# workload failed.
set -eu
export LC_ALL=C

usage="usage: $0 workloads|mpi|hdf5|pnetcdf|mpiio [--reference] LIB PARSER BINDIR [NAME...]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
suite=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
# Per suite: its directory, the expected files, the program prefix, run.sh's
# launcher option, the HEATMAP slack with --reference, and the lines compared.
filter=cat
case $suite in
    workloads) dir=$here/../workloads expected=expected prefix=wl_ run= slack=0 ;;
    mpi) dir=$here/../mpi expected=expected prefix=mpi_ run=-m slack=4 ;;
    hdf5) dir=$here/../hdf5 expected=expected prefix=h5_ run=-m slack=4 ;;
    pnetcdf) dir=$here/../pnetcdf expected=expected prefix=pnc_ run=-m slack=4 ;;
    mpiio)
        dir=$here/../mpi expected=expected-rank prefix=mpi_ run=-m slack=4 filter=mpiio_only
        export DARSHAN_DISABLE_SHARED_REDUCTION=1
        ;;
    *) echo "$usage" >&2; exit 2 ;;
esac
mode=strip
if [ "${1:-}" = "--reference" ]; then
    mode=reference
    shift
fi
[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
lib=$1 parser=$2 bindir=$3
shift 3
if [ $# -eq 0 ]; then
    for f in "$dir/$expected"/*.txt; do
        set -- "$@" "$(basename "$f" .txt)"
    done
fi

# The status the shell reports for each workload (128 + signal number).
status_of() {
    case $1 in
        crash_segv) echo 139 ;;
        sigkill) echo 137 ;;
        *) echo 0 ;;
    esac
}

# run.sh's launcher option for a workload: the suite's, but the serial HDF5
# workload runs as one process.
launcher_of() {
    case $suite/$1 in
        hdf5/serial) echo "" ;;
        *) echo "$run" ;;
    esac
}

# The lines of a normal form the mpiio suite is about.
mpiio_only() {
    awk -F '\t' '$0 == "== log" || $1 == "MPI-IO" || $5 == "heatmap:MPIIO"'
}

# With --reference: Darshan rounds each heatmap bin's share of an access on
# its own, so a sum can be a byte off for every access that straddled a bin
# boundary (which happens when the machine is slow). Two normal forms are
# close when they differ only in HEATMAP_*_BYTES values, each by at most
# $slack bytes.
heatmap_close() {
    [ "$slack" -gt 0 ] && [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] &&
    paste "$1" "$2" | awk -F '\t' -v slack="$slack" '
    NF == 2 && $1 == "== log" && $2 == "== log" { next }
    NF != 10 { exit 1 }
    {
        for (i = 1; i <= 5; i++) if (i != 4 && $i != $(i + 5)) exit 1
        if ($4 == $9) next
        if ($1 != "HEATMAP") exit 1
        d = $4 - $9; if (d < 0) d = -d
        if (d > slack) exit 1
    }'
}

failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iolens-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
    file=$dir/$expected/$name.txt
    view=$mode
    [ "$expected" = expected ] || view=strip
    "$here/normalize.sh" --$view "$file" > "$tmp/want"
    envfile=
    [ "$mode" = reference ] || [ ! -f "$dir/env/$name" ] || envfile=$dir/env/$name
    brief=
    [ "$(head -n 1 "$file")" != "#FORM brief" ] || brief=-b
    if ! "$here/run.sh" $(launcher_of "$name") -x "$(status_of "$name")" ${envfile:+-e "$envfile"} $brief \
            "$lib" "$parser" "$bindir/$prefix$name" > "$tmp/all" 2> "$tmp/err"; then
        echo "FAIL $name (run)"
        cat "$tmp/err"
        failed=1
        continue
    fi
    $filter < "$tmp/all" > "$tmp/got"
    if cmp -s "$tmp/want" "$tmp/got"; then
        echo "ok   $name"
    elif [ "$mode" = reference ] && heatmap_close "$tmp/want" "$tmp/got"; then
        echo "ok   $name (HEATMAP sums off by at most $slack bytes: Darshan's rounding)"
    else
        echo "FAIL $name"
        diff "$tmp/want" "$tmp/got" | head -40 || true
        failed=1
    fi
done
exit $failed
