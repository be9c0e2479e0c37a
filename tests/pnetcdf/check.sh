#!/bin/sh
# Run the PnetCDF workloads (4 ranks each) under a runtime and compare the
# counters of their logs with expected/*.txt: ../lib/check.sh pnetcdf, where
# the rest is described. In an IOLENS_SANITIZE build (IOLENS_TEST_SANITIZE=ON)
# libasan is preloaded before LIB (../lib/preload.sh); without it the check
# is skipped (exit 77).
#
#   check.sh [--reference] LIB PARSER BINDIR [NAME...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ref=
if [ "${1:-}" = "--reference" ]; then
    ref=--reference
    shift
fi
[ $# -ge 3 ] || { echo "usage: $0 [--reference] LIB PARSER BINDIR [NAME...]" >&2; exit 2; }
lib=$1
shift
# Open MPI's own allocations outlive MPI_Finalize.
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"
exec "$here/../lib/check.sh" pnetcdf $ref "$preload" "$@"
