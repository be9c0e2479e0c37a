#!/bin/sh
# Run workloads under a runtime and compare the counters of their logs with
# expected/*.txt.
#
#   check.sh [--reference] LIB PARSER BINDIR [NAME...]
#
# LIB     the runtime to LD_PRELOAD (libiolens.so; with --reference, the
#         reference's libdarshan.so).
# PARSER  command printing a log as darshan-parser --base does, e.g.
#         "build/bin/iolens parse --base".
# BINDIR  where the wl_* programs are (build/tests/workloads).
# NAME    workloads to run (default: every expected/*.txt).
#
# Without --reference, a workload passes when its normal form equals the
# expected file with its remarks stripped (normalize.sh --strip): the right
# counts, including where the reference is wrong. With --reference, it must
# equal what the reference prints (normalize.sh --reference), which checks
# that the expected files and their remarks still describe the reference.
# Without --reference, the variables in env/NAME (if it exists) are added
# to the workload's environment (run.sh -e): settings iolens needs to do
# what the reference does by default (e.g. IOLENS_MAX_RECORDS=1024); the
# reference runs without them. An expected file whose first line is
# "#FORM brief" is compared with the brief normal form (run.sh -b).
# Prints one line per workload and a diff for each failure; exits 1 if any
# workload failed.
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

# The status the shell reports for each workload (128 + signal number).
status_of() {
    case $1 in
        crash_segv) echo 139 ;;
        sigkill) echo 137 ;;
        *) echo 0 ;;
    esac
}

failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iolens-wlcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
    expected=$here/expected/$name.txt
    "$here/normalize.sh" --$mode "$expected" > "$tmp/want"
    envfile=
    [ "$mode" = reference ] || [ ! -f "$here/env/$name" ] || envfile=$here/env/$name
    brief=
    [ "$(head -n 1 "$expected")" != "#FORM brief" ] || brief=-b
    if ! "$here/run.sh" -x "$(status_of "$name")" ${envfile:+-e "$envfile"} $brief \
            "$lib" "$parser" "$bindir/wl_$name" > "$tmp/got" 2> "$tmp/err"; then
        echo "FAIL $name (run)"
        cat "$tmp/err"
        failed=1
    elif cmp -s "$tmp/want" "$tmp/got"; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        diff "$tmp/want" "$tmp/got" | head -40 || true
        failed=1
    fi
done
exit $failed
