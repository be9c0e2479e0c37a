#!/bin/sh
# The workload suite as a CTest test: every workload under libiolens.so,
# compared with expected/*.txt (check.sh); sigkill's record file is turned
# into a log with `iolens recover` (recover.sh as WL_POSTRUN).
#
#   ctest.sh LIB IOLENS BINDIR [NAME...]
#
# In an IOLENS_SANITIZE build (IOLENS_TEST_SANITIZE=ON) the workloads are
# instrumented too, and the sanitizer runtime must come first in LD_PRELOAD:
# it is found with the compiler (IOLENS_TEST_CC); without it the test is
# skipped (exit 77). Logs are parsed with --show-incomplete: a recovered log
# is marked partial.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 LIB IOLENS BINDIR [NAME...]" >&2; exit 2; }
lib=$1 iolens=$2 bindir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
preload=$lib
if [ "${IOLENS_TEST_SANITIZE:-OFF}" = ON ]; then
    asan=$("${IOLENS_TEST_CC:-cc}" -print-file-name=libasan.so 2>/dev/null || true)
    case $asan in
        /*) [ -f "$asan" ] && preload="$asan $lib" ;;
    esac
    if [ "$preload" = "$lib" ]; then
        echo "skipped: no libasan.so to load before the instrumented runtime"
        exit 77
    fi
    # Fatal signals are the runtime's to handle (and then the default's).
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0:handle_abort=0"
fi
export WL_POSTRUN="$here/recover.sh $iolens"
exec "$here/check.sh" "$preload" "$iolens parse --base --show-incomplete" "$bindir" "$@"
