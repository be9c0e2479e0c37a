#!/bin/sh
# Run one workload, or one MPI job (-m), under a preloaded runtime and print
# the normal form of the logs it leaves (see normalize.sh). The core of
# tests/workloads/run.sh and tests/mpi/run.sh (which passes -m).
#
#   run.sh [-m] [-x STATUS] [-k] [-e ENVFILE] [-b] LIB PARSER WORKLOAD [MODE]
#
# LIB      the runtime to LD_PRELOAD (libiolens.so, or the reference's
#          libdarshan.so, built with MPI for -m); "none" runs without one
#          (no logs).
# PARSER   a command that prints a log's counters as darshan-parser --base
#          does, e.g. "iolens parse --base" or "darshan-parser --base".
# WORKLOAD a wl_* program (an mpi_* program with -m); MODE is passed on as
#          its second argument.
# -m       run WORKLOAD as an MPI job of 4 ranks (see below).
# -x       the exit status the shell reports for the workload (default 0;
#          128+N for death by signal N); anything else is an error.
# -k       keep the scratch directory and print its path on stderr.
# -e       add the variables of ENVFILE to the workload's environment: one
#          NAME=VALUE a line (no quoting; '#' lines and blank lines ignored).
#          check.sh passes env/NAME this way when it runs iolens.
# -b       print the brief normal form (normalize.sh --brief).
#
# The workload runs in a fresh directory T/d (its argument), with stdin from
# /dev/null and stdout, stderr into T/; logs go to T/logs through
# DARSHAN_LOGPATH and IOLENS_LOGPATH, with DARSHAN_ENABLE_NONMPI=1; the
# reference's memory-mapped logs go to T/mmap (DARSHAN_MMAP_LOGPATH).
#
# With -m the job runs as
#   $MPIEXEC -np 4 env LD_PRELOAD=LIB ... WORKLOAD T/d
# with MPIEXEC defaulting to "mpirun --oversubscribe" (Open MPI; as root,
# OMPI_ALLOW_RUN_AS_ROOT and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM are set). Only
# the ranks preload LIB, not mpirun; each rank starts in T/d;
# DARSHAN_ENABLE_NONMPI is unset. The job is killed after $MPI_WL_TIMEOUT
# seconds (default 300).
#
# T is
# made under $TMPDIR (default /tmp), which must not be under a prefix the
# runtimes exclude by default (/etc/, /dev/, /usr/, /bin/, /boot/, /lib/,
# /opt/, /sbin/, /sys/, /proc/, /var/). If WL_POSTRUN is set, it
# is run as `$WL_POSTRUN T` after the workload and before parsing (e.g. to
# recover the log of a killed process into T/logs).
set -eu
export LC_ALL=C

mpi=0
want=0
keep=0
envfile=
brief=
while [ $# -gt 0 ]; do
    case $1 in
        -m) mpi=1; shift ;;
        -x) want=$2; shift 2 ;;
        -k) keep=1; shift ;;
        -e) envfile=$2; shift 2 ;;
        -b) brief=--brief; shift ;;
        *) break ;;
    esac
done
[ $# -ge 3 ] || { echo "usage: $0 [-m] [-x STATUS] [-k] [-e ENVFILE] [-b] LIB PARSER WORKLOAD [MODE]" >&2; exit 2; }
# The extra variables, one NAME=VALUE a line, as env(1) arguments.
extra=
if [ -n "$envfile" ]; then
    extra=$(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$envfile")
    for kv in $extra; do
        case $kv in
            [A-Za-z_]*=*) ;;
            *) echo "run.sh: $envfile: not NAME=VALUE: $kv" >&2; exit 2 ;;
        esac
    done
fi
lib=$1 parser=$2 workload=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
case $workload in /*) ;; *) workload=$(pwd)/$workload ;; esac
# The workload runs elsewhere: a relative LIB would not be found there.
case $lib in none | /*) ;; *) lib=$(pwd)/$lib ;; esac
[ -x "$workload" ] || { echo "run.sh: $workload: not an executable" >&2; exit 2; }

# How the workload starts: directly, with DARSHAN_ENABLE_NONMPI=1 for the
# reference, or as 4 ranks under the MPI launcher, without it.
if [ "$mpi" = 1 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
    unset DARSHAN_ENABLE_NONMPI
    launch="timeout ${MPI_WL_TIMEOUT:-300} ${MPIEXEC:-mpirun --oversubscribe} -np 4 env"
    nonmpi=
else
    launch=env
    nonmpi=DARSHAN_ENABLE_NONMPI=1
fi

t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-wl.XXXXXX")
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
    exec $launch LD_PRELOAD="$preload" $nonmpi \
        DARSHAN_LOGPATH="$t/logs" IOLENS_LOGPATH="$t/logs" \
        DARSHAN_MMAP_LOGPATH="$t/mmap" $extra \
        "$workload" "$t/d" "$@" < /dev/null > "$t/stdout" 2> "$t/stderr"
) || status=$?
if [ "$status" != "$want" ]; then
    echo "run.sh: $workload exited with status $status, expected $want" >&2
    cat "$t/stdout" "$t/stderr" >&2
    exit 1
fi
[ -z "${WL_POSTRUN:-}" ] || $WL_POSTRUN "$t"

n=0
for log in "$t"/logs/*; do
    [ -f "$log" ] || continue
    n=$((n + 1))
    $parser "$log" > "$t/parsed/$n.txt"
done
if [ "$n" -eq 0 ]; then
    exit 0
fi
set --
for i in $(seq 1 "$n"); do
    set -- "$@" "$t/parsed/$i.txt"
done
"$here/normalize.sh" $brief "$t/d" "$@"
