#!/bin/sh
# Live events of an MPI job: h5_indep (tests/hdf5/indep.c) as 4 ranks with
# IOLENS_EVENTS=file:DIR, checked by rt_events_mpi.py against the job's log.
#
#   rt_events_mpi.sh LIB IOLENS H5_INDEP
#
# The sanitizer set-up is ../lib/preload.sh; the job starts as ../lib/run.sh
# starts MPI workloads (mpirun --oversubscribe, root allowed).
set -eu
[ $# -eq 3 ] || { echo "usage: $0 LIB IOLENS H5_INDEP" >&2; exit 2; }
. "$(dirname "$0")/../lib/preload.sh"
# Open MPI's and HDF5's own allocations outlive the program's end.
sanitizer_preload "$1" "detect_leaks=0:$asan_signals"
[ -x /usr/bin/python3 ] || { echo "FAIL: /usr/bin/python3 is needed (scripts/install-deps)"; exit 1; }
command -v mpirun > /dev/null 2>&1 ||
    { echo "FAIL: mpirun not found: install Open MPI (scripts/install-deps)"; exit 1; }
if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
exec /usr/bin/python3 "$(dirname "$0")/rt_events_mpi.py" "$preload" "$2" "$3"
