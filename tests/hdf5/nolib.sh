#!/bin/sh
# A program that does not use HDF5 maps no HDF5 library when libiolens.so is
# preloaded (the H5F and H5D modules look HDF5 up only at a program's first
# HDF5 call): cat prints its own /proc/self/maps, which must name no libhdf5.
#
#   nolib.sh LIB
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 LIB" >&2; exit 2; }
. "$here/../lib/preload.sh"
sanitizer_preload "$1"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-h5nolib.XXXXXX")
trap 'rm -rf "$t"' EXIT
LD_PRELOAD="$preload" IOLENS_LOGPATH="$t" cat /proc/self/maps > "$t/maps"
grep -q "$(basename "$1")" "$t/maps" ||
    { echo "FAIL: the runtime was not loaded into cat"; exit 1; }
if grep -q libhdf5 "$t/maps"; then
    echo "FAIL: a program without HDF5 maps an HDF5 library under the runtime:"
    grep libhdf5 "$t/maps"
    exit 1
fi
echo "ok: no HDF5 library mapped"
