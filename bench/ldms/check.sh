#!/bin/sh
# The ldms:// sink by hand against a real ldmsd (LDMS is not in Debian, so CI
# cannot run this): check.py starts ldmsd on 127.0.0.1 with stream_csv_store
# and checks the stored rows against the events, then does the same with
# Darshan's LDMS connector, and measures both.
#
#   bench/ldms/check.sh LDMS_PREFIX [IOLENS_BUILD [DARSHAN_LDMS_PREFIX]] [-- CASE...]
#
# LDMS_PREFIX: an LDMS 4.5 install (ldmsd, stream_csv_store). IOLENS_BUILD: a
# build configured with -DLDMS_PREFIX=LDMS_PREFIX (default: build-ldms).
# DARSHAN_LDMS_PREFIX: Darshan 3.5 built --with-ldms=LDMS_PREFIX (its cases
# are skipped without it). CASE: known escape bigid noloss restart darshan
# bench (default: all but bench). BENCH_ROUNDS (default 5) for bench.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 LDMS_PREFIX [IOLENS_BUILD [DARSHAN_LDMS_PREFIX]] [-- CASE...]" >&2; exit 2; }
ldms=$1; shift
build=$root/build-ldms darshan=
[ $# -eq 0 ] || [ "$1" = -- ] || { build=$1; shift; }
[ $# -eq 0 ] || [ "$1" = -- ] || { darshan=$1; shift; }
[ $# -eq 0 ] || shift
[ -x "$ldms/sbin/ldmsd" ] || { echo "FAIL: no $ldms/sbin/ldmsd: LDMS_PREFIX must be an LDMS install"; exit 1; }
[ -e "$ldms/lib/ovis-ldms/libstream_csv_store.so" ] ||
    { echo "FAIL: $ldms has no stream_csv_store (lib/ovis-ldms/libstream_csv_store.so)"; exit 1; }
[ -x "$build/tests/runtime/events_prog" ] && [ -e "$build/lib/libiolens.so" ] ||
    { echo "FAIL: no iolens build in $build (cmake -DLDMS_PREFIX=$ldms, then build)"; exit 1; }
grep -q 'ldms:' "$build/lib/libiolens.so" ||
    { echo "FAIL: $build/lib/libiolens.so has no ldms:// sink: configure it with -DLDMS_PREFIX=$ldms"; exit 1; }
[ -x /usr/bin/python3 ] || { echo "FAIL: /usr/bin/python3 is needed"; exit 1; }
exec /usr/bin/python3 "$(dirname "$0")/check.py" "$ldms" "$build" "$darshan" "$@"
