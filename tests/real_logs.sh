#!/bin/sh
# Runs `iolens parse` in every mode and `iolens dxt` over every log of the shared
# Darshan log collection and compares the data lines with what Darshan 3.5's
# tools printed (LOG.<mode>.txt.xz), and the exit codes with index.tsv.
# A difference we make on purpose is kept, line for line, in
# tests/known-deviations/<log file name>.<mode>.diff and must stay exactly so.
# Usage: real_logs.sh IOLENS LOGDIR
set -u
iolens=$1
logs=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$logs/index.tsv" ]; then
  echo "FAIL: shared Darshan logs not found at $logs (expected ../shared/darshan-logs beside the checkout)" >&2
  exit 1
fi
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# check LOG MODE EXPECTED_EXIT EXPECTED_FILE COMMAND...
check() {
  log=$1 mode=$2 want_rc=$3 exp=$4
  shift 4
  "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ "$want_rc" = 255 ] || [ "$want_rc" = 0 ] || want_rc=0
  ok=1
  if [ "$rc" != "$want_rc" ]; then
    echo "FAIL $log $mode: exit $rc, expected $want_rc: $(head -c 200 "$tmp/err")"
    ok=0
  fi
  xz -dc "$exp" > "$tmp/exp"
  "$here/compare_data_lines.sh" "$tmp/exp" "$tmp/out" > "$tmp/diff"
  known="$here/known-deviations/$(basename "$log").$mode.diff"
  if [ -f "$known" ]; then
    if ! cmp -s "$known" "$tmp/diff"; then
      echo "FAIL $log $mode: differs from the reference other than as $known records:"
      diff "$known" "$tmp/diff" | head -20
      ok=0
    fi
  elif [ -s "$tmp/diff" ]; then
    echo "FAIL $log $mode: $(grep -c '^[<>]' "$tmp/diff") data lines differ, first ones:"
    head -20 "$tmp/diff"
    ok=0
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

tail -n +2 "$logs/index.tsv" | while IFS='	' read -r log ver eb et ep ef ed; do
  p="$logs/$log"
  set -- base "$eb" total "$et" perf "$ep" file "$ef"
  while [ $# -gt 0 ]; do
    mode=$1 want=$2
    shift 2
    check "$log" "$mode" "$want" "$p.$mode.txt.xz" "$iolens" parse "--$mode" "$p"
    if [ -f "$p.$mode-incomplete.txt.xz" ]; then
      check "$log" "$mode-incomplete" 0 "$p.$mode-incomplete.txt.xz" \
        "$iolens" parse "--$mode" --show-incomplete "$p"
    fi
  done
  if [ "$ed" != "-" ]; then
    check "$log" dxt "$ed" "$p.dxt.txt.xz" "$iolens" dxt "$p"
  fi
  echo "$pass $fail" > "$tmp/tally"
done
read pass fail < "$tmp/tally"
echo "real logs: $pass outputs match, $fail differ"
[ "$fail" = 0 ]
