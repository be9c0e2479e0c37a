#!/bin/sh
# Run the insight workloads (expected.txt) under libiolens.so and check that
# `iolens insights` finds exactly the expected findings above info in each
# log, in text and JSON.
#
#   check.sh RUNTIME IOLENS BINDIR serial|mpi
#
# BINDIR holds the ins_* programs; the mode picks the lines of expected.txt.
# In a sanitizer build (IOLENS_TEST_SANITIZE=ON) libasan is preloaded first
# (without leak checks for MPI jobs, as tests/mpi does).
set -eu
export LC_ALL=C
runtime=$1 iolens=$2 bindir=$3 mode=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/preload.sh"
# Open MPI does not free what it allocates: no leak reports for MPI jobs.
if [ "$mode" = mpi ]; then
    sanitizer_preload "$runtime" "detect_leaks=0:$asan_signals"
else
    sanitizer_preload "$runtime"
fi
if [ "$mode" = mpi ] && [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-ins.XXXXXX")
trap 'rm -rf "$t"' EXIT
fails=0 runs=0

# The findings above info of a JSON report, as id:severity,...
above_info() {
    grep -o '"id": "[a-z0-9-]*", "severity": "[a-z]*"' "$1" |
        sed 's/"id": "\([^"]*\)", "severity": "\([^"]*\)"/\1:\2/' |
        grep -v ':info$' | paste -sd, - || true
}

while read -r name prog wmode want vars; do
    case $name in '#'* | '') continue ;; esac
    [ "$wmode" = "$mode" ] || continue
    runs=$((runs + 1))
    d=$t/$name
    mkdir -p "$d/work" "$d/logs"
    [ -x "$bindir/$prog" ] || { echo "FAIL $name: $bindir/$prog not built"; fails=$((fails + 1)); continue; }
    if [ "$mode" = mpi ]; then
        launch="timeout 120 ${MPIEXEC:-mpirun --oversubscribe} -np 4 env"
    else
        launch="env"
    fi
    # shellcheck disable=SC2086 # $vars and $launch are lists of words
    if ! $launch LD_PRELOAD="$preload" IOLENS_LOGPATH="$d/logs" $vars \
            "$bindir/$prog" "$d/work" < /dev/null > "$d/out" 2>&1; then
        echo "FAIL $name: $prog failed:"; cat "$d/out"; fails=$((fails + 1)); continue
    fi
    set -- "$d"/logs/*.darshan
    if [ $# -ne 1 ] || [ ! -f "$1" ]; then
        echo "FAIL $name: expected one log in $d/logs, found: $*"; fails=$((fails + 1)); continue
    fi
    log=$1
    if ! "$iolens" insights --json "$log" > "$d/json" 2> "$d/err" ||
       ! "$iolens" insights "$log" > "$d/text" 2>> "$d/err"; then
        echo "FAIL $name: iolens insights failed:"; cat "$d/err"; fails=$((fails + 1)); continue
    fi
    got=$(above_info "$d/json")
    [ -n "$got" ] || got=-
    if [ "$got" != "$want" ]; then
        echo "FAIL $name: findings above info: $got, expected $want"; cat "$d/text"
        fails=$((fails + 1))
        continue
    fi
    # The text form lists the same findings, or says there are none.
    if [ "$want" = - ]; then
        grep -q ': no findings$\|(0 high, 0 warn' "$d/text" || {
            echo "FAIL $name: text form:"; cat "$d/text"; fails=$((fails + 1)); continue; }
    else
        for f in $(echo "$want" | tr , ' '); do
            grep -q "^${f#*:} *${f%%:*}: " "$d/text" || {
                echo "FAIL $name: $f not in the text form:"; cat "$d/text"; fails=$((fails + 1)); }
        done
    fi
    echo "ok $name: $got"
done < "$here/expected.txt"
[ "$runs" -gt 0 ] || { echo "FAIL: no $mode workload in expected.txt"; exit 1; }
[ "$fails" -eq 0 ] || { echo "FAIL: $fails of $runs workloads"; exit 1; }
echo "ok: $runs $mode workloads"
