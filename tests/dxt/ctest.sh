#!/bin/sh
# The DXT segment checks as CTest tests: the workloads PROG... under
# libiolens.so with DXT on, their `iolens dxt` segments compared with
# expected/PROG.txt (check.sh). In an IOLENS_SANITIZE build the sanitizer
# runtime goes first in LD_PRELOAD (../lib/preload.sh; skipped, 77, without it).
#
#   ctest.sh LIB IOLENS BINDIR PROG...
set -eu
[ $# -ge 4 ] || { echo "usage: $0 LIB IOLENS BINDIR PROG..." >&2; exit 2; }
lib=$1 iolens=$2 bindir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"
exec "$here/check.sh" "$preload" "$iolens dxt" "$bindir" "$@"
