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
# skipped (exit 77). Logs are parsed with --show-incomplete: the record_limit
# workload's log is partial.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 LIB IOLENS BINDIR [NAME...]" >&2; exit 2; }
lib=$1 iolens=$2 bindir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "$asan_signals"
export WL_POSTRUN="$here/recover.sh $iolens"
exec "$here/check.sh" "$preload" "$iolens parse --base --show-incomplete" "$bindir" "$@"
