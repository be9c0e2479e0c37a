#!/bin/sh
# WL_POSTRUN for iolens: turn the record files a killed workload left in
# T/mmap into logs in T/logs (run.sh calls `$WL_POSTRUN T`).
#
#   WL_POSTRUN="tests/workloads/recover.sh build/bin/iolens" check.sh ...
set -eu
[ $# -eq 2 ] || { echo "usage: $0 IOLENS T" >&2; exit 2; }
iolens=$1 t=$2
for f in "$t"/mmap/*.iolmap; do
    [ -f "$f" ] || continue
    "$iolens" recover --remove -o "$t/logs" "$f" > /dev/null
done
