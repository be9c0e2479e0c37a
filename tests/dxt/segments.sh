#!/bin/sh
# Run one workload (or, with -m, one MPI job of 4 ranks) under a preloaded
# runtime with DXT on (DXT_ENABLE_IO_TRACE=1: DXT_POSIX, and DXT_MPIIO in MPI
# jobs) and print the segments of its log in normal form (README.md).
#
#   segments.sh [-m] LIB DXT_PARSER WORKLOAD
#
# LIB         libiolens.so, or the reference's libdarshan.so (Darshan 3.5).
# DXT_PARSER  a command printing a log's traces as darshan-dxt-parser does
#             ("iolens dxt", "darshan-dxt-parser"); given --show-incomplete
#             only if it is iolens (the reference's parser has no such option
#             and prints partial traces with a warning).
# WORKLOAD    a wl_* program (mpi_* with -m), run in a fresh directory T/d.
#
# The normal form: for each trace record of a file under T/d, its segments,
# one a line,
#   MODULE <tab> RANK <tab> KIND <tab> SEGMENT <tab> OFFSET <tab> LENGTH <tab> NAME
# with T/d written @DIR@; times and thread ids left out (they differ from run
# to run). Records are sorted by module, name and rank; segments keep the
# log's order. Jobs start as ../lib/run.sh starts them.
set -eu
export LC_ALL=C
mpi=0
[ "${1:-}" = -m ] && { mpi=1; shift; }
[ $# -eq 3 ] || { echo "usage: $0 [-m] LIB DXT_PARSER WORKLOAD" >&2; exit 2; }
lib=$1 parser=$2 workload=$3
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
case $workload in /*) ;; *) workload=$(pwd)/$workload ;; esac
[ -x "$workload" ] || { echo "segments.sh: $workload: not an executable" >&2; exit 2; }
case $parser in *iolens*) parser="$parser --show-incomplete" ;; esac

if [ "$mpi" = 1 ]; then
    command -v mpirun > /dev/null 2>&1 ||
        { echo "segments.sh: mpirun not found: install Open MPI (scripts/install-deps)" >&2; exit 1; }
    [ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    launch="timeout ${MPI_WL_TIMEOUT:-300} ${MPIEXEC:-mpirun --oversubscribe} -np 4 env"
    nonmpi=
else
    launch=env
    nonmpi=DARSHAN_ENABLE_NONMPI=1
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-dxtseg.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/d" "$t/logs" "$t/mmap" "$t/ompi"
(
    cd "$t/d"
    exec $launch LD_PRELOAD="$lib" $nonmpi DXT_ENABLE_IO_TRACE=1 \
        DARSHAN_LOGPATH="$t/logs" IOLENS_LOGPATH="$t/logs" DARSHAN_MMAP_LOGPATH="$t/mmap" \
        IOLENS_MMAP_DIR="$t/mmap" OMPI_MCA_orte_tmpdir_base="$t/ompi" \
        "$workload" "$t/d" < /dev/null > "$t/stdout" 2> "$t/stderr"
) || { echo "segments.sh: $workload failed" >&2; cat "$t/stdout" "$t/stderr" >&2; exit 1; }
set -- "$t"/logs/*
[ $# -eq 1 ] && [ -f "$1" ] || { echo "segments.sh: expected one log, got: $*" >&2; exit 1; }
$parser "$1" > "$t/dxt" || { echo "segments.sh: $parser failed on the log" >&2; exit 1; }
awk -v dir="$t/d" '
    /^# DXT, file_id:/ {
        name = $0; sub(/^# DXT, file_id: [0-9]+, file_name: /, "", name)
        on = (name == dir || index(name, dir "/") == 1)
        if (on) { name = "@DIR@" substr(name, length(dir) + 1); rec++ }
        next
    }
    on && $1 ~ /^X_/ {
        # sort key: module, name, rank, then the order within the record
        printf "%s\t%s\t%010d\t%010d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, name, $2 + 1, ++n[rec],
            $1, $2, $3, $4, $5, $6, name
    }' "$t/dxt" | sort -t "$(printf '\t')" -k1,1 -k2,2 -k3,3 -k4,4 | cut -f5-
