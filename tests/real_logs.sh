#!/bin/sh
# Runs `iolens parse` in every mode and `iolens dxt` over every log of a folder of
# real Darshan logs (tests/data/darshan-logs) and compares the data lines with
# what Darshan 3.5's tools printed, and the exit codes with index.tsv. The
# reference is LOG.<mode>.data.xz (its data lines only, as stored in the
# repository) or else LOG.<mode>.txt.xz (a full output, as in the shared
# collection); only data lines are compared either way (compare_data_lines.sh).
# A difference we make on purpose is kept, line for line, in
# tests/known-deviations/<log file name>.<mode>.diff and must stay exactly so.
# Usage: real_logs.sh IOLENS LOGDIR
set -u
iolens=$1
logs=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$logs/index.tsv" ]; then
  echo "FAIL: real Darshan logs not found at $logs (no index.tsv; the repository has them in tests/data/darshan-logs)" >&2
  exit 1
fi
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# ref LOG MODE: the reference output of LOG in MODE (may not exist).
ref() {
  if [ -f "$1.$2.data.xz" ]; then echo "$1.$2.data.xz"; else echo "$1.$2.txt.xz"; fi
}

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
  if [ ! -f "$exp" ]; then
    echo "FAIL $log $mode: no reference output: neither ${exp%.txt.xz}.data.xz nor $exp"
    fail=$((fail + 1))
    return
  fi
  if ! xz -dc "$exp" > "$tmp/exp"; then
    echo "FAIL $log $mode: cannot read the reference output $exp"
    fail=$((fail + 1))
    return
  fi
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
    check "$log" "$mode" "$want" "$(ref "$p" "$mode")" "$iolens" parse "--$mode" "$p"
    inc=$(ref "$p" "$mode-incomplete")
    if [ -f "$inc" ]; then
      check "$log" "$mode-incomplete" 0 "$inc" "$iolens" parse "--$mode" --show-incomplete "$p"
    fi
  done
  if [ "$ed" != "-" ]; then
    check "$log" dxt "$ed" "$(ref "$p" dxt)" "$iolens" dxt "$p"
  fi
  echo "$pass $fail" > "$tmp/tally"
done
read pass fail < "$tmp/tally"
echo "real logs: $pass outputs match, $fail differ"
[ "$fail" = 0 ]
