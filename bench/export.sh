#!/bin/sh
# iolens export on large logs: records per second and peak RSS of each format.
#   - JSON and CSV on POSIX logs that make_log writes: 1,000,000 records (8 ranks),
#     and 100,000 records with the same 125,000 names, to show that memory
#     follows the names, not the records;
#   - Perfetto on 1,000,000 DXT segments that dxt_writers makes under the
#     runtime (as bench/report_dxt.sh does).
# Output goes to /dev/null (JSON, Perfetto) or a scratch directory (CSV).
#
# usage: bench/export.sh [BUILD_DIR]   (default build)
# environment: BENCH_RECORDS (default 1000000), BENCH_RUNS (default 3).
set -eu
build=${1:-build}
records=${BENCH_RECORDS:-1000000}
runs=${BENCH_RUNS:-3}
iolens=$(realpath "$build/bin/iolens")
make_log=$(realpath "$build/bench/make_log")
writers=$(realpath "$build/bin/dxt_writers")
runtime=$(realpath "$build/lib/libiolens.so")
[ -x /usr/bin/time ] || { echo "export.sh: /usr/bin/time missing (scripts/install-deps)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=$((records / 8))

# measure LABEL COUNT ARGS...: time `iolens ARGS...` BENCH_RUNS times; print the
# median wall seconds, COUNT per wall second, the median CPU seconds (user and
# system: the cores are shared, wall time also counts waiting) and peak RSS.
measure() {
  label=$1 count=$2
  shift 2
  : > "$tmp/runs"
  for i in $(seq "$runs"); do
    rm -rf "$tmp/csv"
    /usr/bin/time -f "%e %M %U %S" -o "$tmp/one" "$iolens" "$@" > /dev/null
    cat "$tmp/one" >> "$tmp/runs"
  done
  s=$(cut -d' ' -f1 "$tmp/runs" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  kb=$(cut -d' ' -f2 "$tmp/runs" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  cpu=$(awk '{ print $3 + $4 }' "$tmp/runs" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  awk -v l="$label" -v s="$s" -v n="$count" -v kb="$kb" -v c="$cpu" 'BEGIN {
    printf "%-34s %7.2f s wall %9.0f /s  %7.2f s CPU %9.0f /s  peak RSS %6.1f MB\n", l, s,
      (s > 0 ? n / s : 0), c, (c > 0 ? n / c : 0), kb / 1024 }'
}

for n in "$records" $((records / 10)); do
  "$make_log" -n "$n" -f "$names" "$tmp/posix.darshan" > /dev/null
  echo "POSIX log: $n records, $names names, $(wc -c < "$tmp/posix.darshan") bytes"
  measure "json, $n records" "$n" export --format json -o /dev/null "$tmp/posix.darshan"
  measure "csv, $n records" "$n" export --format csv -o "$tmp/csv" "$tmp/posix.darshan"
  measure "parse (for scale), $n records" "$n" parse "$tmp/posix.darshan"
done

env DXT_ENABLE_IO_TRACE=1 IOLENS_DXT_MEM=64 IOLENS_MMAP_DIR="$tmp" IOLENS_LOGFILE="$tmp/dxt.darshan" \
  LD_PRELOAD="$runtime" "$writers" "$tmp/data" 1 "$records"
rm -f "$tmp/data"
segs=$("$iolens" dxt "$tmp/dxt.darshan" | grep -c '^ X_')
echo "DXT log: $segs segments, $(wc -c < "$tmp/dxt.darshan") bytes"
measure "perfetto, $segs segments" "$segs" export --format perfetto -o /dev/null "$tmp/dxt.darshan"
measure "json, $segs segments" "$segs" export --format json -o /dev/null "$tmp/dxt.darshan"
