#!/bin/sh
# Run one MPI workload as 4 ranks under a preloaded runtime and print the
# normal form of the logs it leaves (see normalize.sh).
#
#   run.sh [-k] LIB PARSER PROGRAM
#
# LIB      the runtime each rank preloads (LD_PRELOAD): libiolens.so, or the
#          reference's libdarshan.so built with MPI; "none" runs without one.
# PARSER   a command that prints a log's counters as darshan-parser --base
#          does, e.g. "iolens parse --base" or "darshan-parser --base".
# PROGRAM  an mpi_* program.
# -k       keep the scratch directory and print its path on stderr.
#
# The job runs as
#   $MPIEXEC -np 4 env LD_PRELOAD=LIB ... PROGRAM T/d
# with MPIEXEC defaulting to "mpirun --oversubscribe" (Open MPI; as root,
# OMPI_ALLOW_RUN_AS_ROOT and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM are set). Only
# the ranks preload LIB, not mpirun. Each rank starts in T/d (the program's
# argument), stdin from /dev/null, stdout and stderr into T/; logs go to
# T/logs (DARSHAN_LOGPATH, IOLENS_LOGPATH), the reference's memory-mapped
# logs to T/mmap (DARSHAN_MMAP_LOGPATH); DARSHAN_ENABLE_NONMPI is unset. T is
# made under $TMPDIR (default /tmp), which must not be under a prefix the
# runtimes exclude by default (/etc/, /dev/, /usr/, /var/, ...). The job is
# killed after $MPI_WL_TIMEOUT seconds (default 300).
set -eu
export LC_ALL=C

keep=0
while [ $# -gt 0 ]; do
    case $1 in
        -k) keep=1; shift ;;
        *) break ;;
    esac
done
[ $# -eq 3 ] || { echo "usage: $0 [-k] LIB PARSER PROGRAM" >&2; exit 2; }
lib=$1 parser=$2 program=$3
here=$(cd "$(dirname "$0")" && pwd)
case $program in /*) ;; *) program=$(pwd)/$program ;; esac
case $lib in none | /*) ;; *) lib=$(pwd)/$lib ;; esac
[ -x "$program" ] || { echo "run.sh: $program: not an executable" >&2; exit 2; }

if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
unset DARSHAN_ENABLE_NONMPI

t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-mpi.XXXXXX")
t=$(cd "$t" && pwd -P)
if [ "$keep" = 1 ]; then
    echo "run.sh: scratch directory $t" >&2
else
    trap 'rm -rf "$t"' EXIT
fi
mkdir "$t/d" "$t/logs" "$t/mmap" "$t/parsed"

preload=
[ "$lib" = none ] || preload=$lib
status=0
(
    cd "$t/d"
    exec timeout "${MPI_WL_TIMEOUT:-300}" ${MPIEXEC:-mpirun --oversubscribe} -np 4 \
        env LD_PRELOAD="$preload" \
        DARSHAN_LOGPATH="$t/logs" IOLENS_LOGPATH="$t/logs" \
        DARSHAN_MMAP_LOGPATH="$t/mmap" \
        "$program" "$t/d" < /dev/null > "$t/stdout" 2> "$t/stderr"
) || status=$?
if [ "$status" != 0 ]; then
    echo "run.sh: $program exited with status $status" >&2
    cat "$t/stdout" "$t/stderr" >&2
    exit 1
fi

n=0
for log in "$t"/logs/*; do
    [ -f "$log" ] || continue
    n=$((n + 1))
    $parser "$log" > "$t/parsed/$n.txt"
done
[ "$n" -gt 0 ] || exit 0
set --
for i in $(seq 1 "$n"); do
    set -- "$@" "$t/parsed/$i.txt"
done
"$here/normalize.sh" "$t/d" "$@"
