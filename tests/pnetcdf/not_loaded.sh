#!/bin/sh
# A program without PnetCDF (cat) run under the runtime LIB maps no PnetCDF
# or MPI library: the PnetCDF wrappers look nothing up until they are called.
# In an IOLENS_SANITIZE build libasan is preloaded first (../lib/preload.sh).
#
#   not_loaded.sh LIB
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 LIB" >&2; exit 2; }
. "$here/../lib/preload.sh"
sanitizer_preload "$1"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-pnc.XXXXXX")
trap 'rm -rf "$t"' EXIT
maps=$(env LD_PRELOAD="$preload" IOLENS_LOGPATH="$t" cat /proc/self/maps)
echo "$maps" | grep -q libiolens || { echo "FAIL: the runtime is not loaded"; exit 1; }
if echo "$maps" | grep -E '/lib(pnetcdf|mpi)[^/]*$'; then
    echo "FAIL: a PnetCDF or MPI library is mapped (above)"
    exit 1
fi
echo "ok: no PnetCDF or MPI library mapped"
