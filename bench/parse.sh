#!/bin/sh
# Time `iolens parse --base` and `--total` on a large synthetic log, and the
# reference darshan-parser on the same log when IOLENS_REF_PARSER names one.
#
# usage: bench/parse.sh [BUILD_DIR]        (default: build)
# environment:
#   BENCH_RECORDS  POSIX records in the log (default 1000000)
#   BENCH_RANKS    ranks sharing the same file names (default 8)
#   BENCH_RUNS     timed runs per tool and mode; medians are printed (default 5)
#   BENCH_DIR      where the logs are kept between runs (default BUILD_DIR/bench)
#   IOLENS_REF_PARSER  a reference darshan-parser to time, interleaved with ours
#
# Output goes to /dev/null; wall time comes from `date`, peak RSS from
# /usr/bin/time -f %M. A second log with a quarter of the records and the same
# names shows whether --base's peak memory grows with the record count.
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
records=${BENCH_RECORDS:-1000000}
ranks=${BENCH_RANKS:-8}
runs=${BENCH_RUNS:-5}
dir=${BENCH_DIR:-$build/bench}
ref=${IOLENS_REF_PARSER:-}
iolens=$build/bin/iolens
make_log=$build/bench/make_log

for f in "$iolens" "$make_log"; do
  [ -x "$f" ] || { echo "parse.sh: $f not built (run make first)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "parse.sh: /usr/bin/time missing (scripts/install-deps)" >&2; exit 1; }
[ -z "$ref" ] || [ -x "$ref" ] || { echo "parse.sh: IOLENS_REF_PARSER=$ref is not executable" >&2; exit 1; }
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=$((records / ranks))
small=$((records / 4))
log=$dir/posix-$records-$ranks.darshan
log_small=$dir/posix-$small-$ranks-f$files.darshan
[ -f "$log" ] || "$make_log" -n "$records" -r "$ranks" "$log"
[ -f "$log_small" ] || "$make_log" -n "$small" -r "$ranks" -f "$files" "$log_small"

# run_once OUTFILE CMD...: append "seconds peak_rss_kb" of one run to OUTFILE.
run_once() {
  out=$1; shift
  t0=$(date +%s.%N)
  /usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null
  t1=$(date +%s.%N)
  echo "$t0 $t1 $(tail -n 1 "$tmp/rss")" | awk '{ printf "%.3f %d\n", $2 - $1, $3 }' >> "$out"
}

size=$(du -m "$log" | cut -f1)
echo "log: $log ($records POSIX records, $ranks ranks, $files names, ${size} MB)"
echo "runs: $runs per tool and mode, interleaved; times are medians of wall seconds"
echo
printf '%-8s %-14s %10s %12s %14s\n' mode tool seconds "peak RSS MB" "output lines"
for mode in base total; do
  : > "$tmp/ours.$mode"; : > "$tmp/ref.$mode"
  i=0
  while [ $i -lt "$runs" ]; do
    run_once "$tmp/ours.$mode" "$iolens" parse --$mode "$log"
    [ -z "$ref" ] || run_once "$tmp/ref.$mode" "$ref" --$mode "$log"
    i=$((i + 1))
  done
  ours_t=$(median "$tmp/ours.$mode" 1)
  ours_lines=$("$iolens" parse --$mode "$log" | wc -l)
  printf '%-8s %-14s %10s %12s %14s\n' "--$mode" iolens "$ours_t" \
    "$(median "$tmp/ours.$mode" 2 | awk '{ printf "%.1f", $1 / 1024 }')" "$ours_lines"
  if [ -n "$ref" ]; then
    ref_t=$(median "$tmp/ref.$mode" 1)
    ref_lines=$("$ref" --$mode "$log" | wc -l)
    printf '%-8s %-14s %10s %12s %14s\n' "--$mode" darshan-parser "$ref_t" \
      "$(median "$tmp/ref.$mode" 2 | awk '{ printf "%.1f", $1 / 1024 }')" "$ref_lines"
    echo "$ref_t $ours_t" | awk '{ printf "%-8s speed ratio (reference time / iolens time): %.2fx\n", "", $1 / $2 }'
  fi
done

echo
echo "peak RSS of iolens parse --base, same $files names:"
for l in "$log_small" "$log"; do
  : > "$tmp/scale"
  run_once "$tmp/scale" "$iolens" parse --base "$l"
  n=$(basename "$l" | cut -d- -f2)
  awk -v n="$n" '{ printf "  %8d records: %.1f MB\n", n, $2 / 1024 }' "$tmp/scale"
done
