#!/bin/sh
# Run the MPI workloads (4 ranks each) under a runtime and compare each
# rank's MPI-IO records and heatmap:MPIIO records with expected-rank/*.txt:
# ../lib/check.sh mpiio, where the comparison is described.
#
#   check_mpiio.sh [--reference] LIB PARSER BINDIR [NAME...]
#
# expected/*.txt hold shared records (rank -1), which need the shared-record
# reduction; these files hold the same jobs' records before it, one per rank:
# what the reference writes with DARSHAN_DISABLE_SHARED_REDUCTION=1 (set for
# every run; iolens ignores it). Only the MPI-IO module and its heatmap are
# compared (the POSIX records are expected/*.txt's business). In an
# IOLENS_SANITIZE build (IOLENS_TEST_SANITIZE=ON) libasan is preloaded
# before LIB (../lib/preload.sh); without it the check is skipped (exit 77).
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
exec "$here/../lib/check.sh" mpiio $ref "$preload" "$@"
