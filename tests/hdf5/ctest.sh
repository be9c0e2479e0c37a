#!/bin/sh
# CTest's hdf5_runtime and hdf5_darshan_parser: check.sh on every workload,
# with libasan preloaded before LIB in an IOLENS_SANITIZE build
# (IOLENS_TEST_SANITIZE=ON; ../lib/preload.sh; skipped, exit 77, without it).
#
#   ctest.sh LIB PARSER BINDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || { echo "usage: $0 LIB PARSER BINDIR" >&2; exit 2; }
. "$here/../lib/preload.sh"
# Open MPI's and HDF5's own allocations outlive the program's end.
sanitizer_preload "$1" "detect_leaks=0:$asan_signals"
exec "$here/check.sh" "$preload" "$2" "$3"
