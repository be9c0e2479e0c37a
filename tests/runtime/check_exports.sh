#!/bin/sh
# libiolens.so must export only the libc symbols it wraps (as its binding
# tables list them) and iolens_* functions, and must export every symbol its
# tables list.
#
#   check_exports.sh LIB RT_SYMBOLS
set -eu
[ $# -eq 2 ] || { echo "usage: $0 LIB RT_SYMBOLS" >&2; exit 2; }
lib=$1 lister=$2
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-exports.XXXXXX")
trap 'rm -rf "$t"' EXIT
export LC_ALL=C

IOLENS_DISABLE=1 "$lister" "$lib" | sort -u > "$t/wrapped"
[ -s "$t/wrapped" ] || { echo "no wrapped symbols listed"; exit 1; }
nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u > "$t/exported"

status=0
# exported but neither wrapped nor iolens_*
comm -23 "$t/exported" "$t/wrapped" | grep -v '^iolens_' > "$t/extra" || true
if [ -s "$t/extra" ]; then
    echo "exported but not in a binding table:"
    sed 's/^/  /' "$t/extra"
    status=1
fi
# listed but not exported
comm -13 "$t/exported" "$t/wrapped" > "$t/missing" || true
if [ -s "$t/missing" ]; then
    echo "in a binding table but not exported:"
    sed 's/^/  /' "$t/missing"
    status=1
fi
[ $status = 0 ] && echo "exports: ok ($(wc -l < "$t/wrapped") wrapped symbols)"
exit $status
