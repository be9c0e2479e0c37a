#!/bin/sh
# `iolens dxt` of each log of DIR (tests/data/dxt-v2) must print LOG.dxt.txt
# byte for byte: what the darshan-dxt-parser of Darshan's development branch
# printed for it (DIR/README.md).
#
#   golden.sh IOLENS DIR
set -eu
[ $# -eq 2 ] || { echo "usage: $0 IOLENS DIR" >&2; exit 2; }
iolens=$1 dir=$2
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-dxtgold.XXXXXX")
trap 'rm -rf "$t"' EXIT
n=0
for log in "$dir"/*.darshan; do
    [ -f "$log" ] || { echo "FAIL: no logs in $dir"; exit 1; }
    "$iolens" dxt "$log" > "$t/out" || { echo "FAIL: iolens dxt $log"; exit 1; }
    diff "$log.dxt.txt" "$t/out" || { echo "FAIL: $log (< parser, > iolens dxt)"; exit 1; }
    n=$((n + 1))
done
echo "ok: $n logs"
