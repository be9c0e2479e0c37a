#!/bin/sh
# Time `iolens report` on a large synthetic log, and PyDarshan's job summary
# (`python3 -m darshan summary`) on the same log when the reference is given;
# then the page's render time in headless Chromium, and iolens report's time
# and peak memory on logs of 100,000 to 1,000,000 records in three shapes:
# 8 ranks over records/8 files; one rank, every record a file of its own (the
# most files: the accumulator's table takes several passes past 262,144);
# 8 ranks with a DXT_POSIX record of 4 segments beside each POSIX record.
#
# usage: bench/report.sh [BUILD_DIR]        (default: build)
# environment:
#   BENCH_RECORDS  POSIX records in the log (default 100000)
#   BENCH_RANKS    ranks (default 8; files = records / ranks, every rank
#                  touches every file)
#   BENCH_RUNS     timed runs per tool; medians are printed (default 3)
#   BENCH_DIR      where the logs are kept between runs (default BUILD_DIR/bench)
#   BENCH_SCALE    record counts of the scaling table (default
#                  "100000 400000 1000000"; the logs take 20 to 200 MB each)
#   IOLENS_REF_PYDARSHAN  PyDarshan's directory (darshan-util/pydarshan): when
#                  set, its summary is timed too, run by IOLENS_REF_PYTHON
#                  (default /usr/bin/python3) with IOLENS_REF_LIBDIR (a Darshan
#                  build's lib/, holding libdarshan-util.so) in LD_LIBRARY_PATH
#
# Wall time comes from `date`, peak RSS from /usr/bin/time -f %M.
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
records=${BENCH_RECORDS:-100000}
ranks=${BENCH_RANKS:-8}
runs=${BENCH_RUNS:-3}
dir=${BENCH_DIR:-$build/bench}
pyd=${IOLENS_REF_PYDARSHAN:-}
python=${IOLENS_REF_PYTHON:-/usr/bin/python3}
libdir=${IOLENS_REF_LIBDIR:-}
iolens=$(realpath "$build/bin/iolens")
make_log=$build/bench/make_log

for f in "$iolens" "$make_log"; do
  [ -x "$f" ] || { echo "report.sh: $f not built (run make first)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "report.sh: /usr/bin/time missing (scripts/install-deps)" >&2; exit 1; }
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=$((records / ranks))
scale=${BENCH_SCALE:-100000 400000 1000000}
log=$(realpath "$dir")/posix-$records-$ranks.darshan
[ -f "$log" ] || "$make_log" -n "$records" -r "$ranks" "$log" > /dev/null

# run_once OUTFILE CMD...: append "seconds peak_rss_kb" of one run to OUTFILE
# (the command runs in $tmp, where PyDarshan writes its page).
run_once() {
  out=$1; shift
  t0=$(date +%s.%N)
  (cd "$tmp" && /usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2> "$tmp/err") ||
    { echo "report.sh: failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$t0 $t1 $(tail -n 1 "$tmp/rss")" | awk '{ printf "%.3f %d\n", $2 - $1, $3 }' >> "$out"
}

echo "log: $log ($records POSIX records, $ranks ranks, $files files, $(du -m "$log" | cut -f1) MB)"
echo "runs: $runs per tool, interleaved; medians of wall seconds and peak RSS"
echo
printf '%-22s %10s %12s %12s\n' tool seconds "peak RSS MB" "page KB"
: > "$tmp/ours"; : > "$tmp/ref"
i=0
while [ $i -lt "$runs" ]; do
  run_once "$tmp/ours" "$iolens" report -o "$tmp/iolens.html" "$log"
  [ -z "$pyd" ] || run_once "$tmp/ref" env PYTHONPATH="$pyd" LD_LIBRARY_PATH="$libdir" \
    "$python" -m darshan summary "$log"
  i=$((i + 1))
done
row() {
  printf '%-22s %10s %12s %12s\n' "$1" "$(median "$2" 1)" \
    "$(median "$2" 2 | awk '{ printf "%.1f", $1 / 1024 }')" "$(($(wc -c < "$3") / 1024))"
}
row "iolens report" "$tmp/ours" "$tmp/iolens.html"
if [ -n "$pyd" ]; then
  row "PyDarshan summary" "$tmp/ref" "$(ls "$tmp"/*_report.html | head -n 1)"
  echo "$(median "$tmp/ref" 1) $(median "$tmp/ours" 1)" |
    awk '{ printf "speed ratio (PyDarshan time / iolens time): %.1fx\n", $1 / $2 }'
else
  echo "(PyDarshan not timed: set IOLENS_REF_PYDARSHAN, see the header of this script)"
fi

echo
browser=$(command -v chromium || true)
if [ -n "$browser" ]; then
  : > "$tmp/render"
  i=0
  while [ $i -lt "$runs" ]; do
    "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" \
      --dump-dom "file://$tmp/iolens.html" 2> /dev/null |
      sed -n 's/.*data-render-ms="\([0-9]*\)".*/\1/p' >> "$tmp/render"
    i=$((i + 1))
  done
  echo "page render in headless Chromium (scripts start to all sections drawn): $(median_of < "$tmp/render") ms"
else
  echo "(page render not timed: chromium missing)"
fi

echo
echo "iolens report by log size (one run each):"
printf '%-10s %-28s %10s %12s\n' records shape seconds "peak RSS MB"
for n in $scale; do
  for shape in "8 ranks, n/8 files" "1 rank, n files" "8 ranks, n/8 files, DXT"; do
    case $shape in
      "1 rank"*) l=$(realpath "$dir")/posix-$n-1.darshan; opts="-r 1" ;;
      *DXT) l=$(realpath "$dir")/posix-$n-8-dxt4.darshan; opts="-r 8 -d 4" ;;
      *) l=$(realpath "$dir")/posix-$n-8.darshan; opts="-r 8" ;;
    esac
    # shellcheck disable=SC2086 # opts holds several options
    [ -f "$l" ] || "$make_log" -n "$n" $opts "$l" > /dev/null
    : > "$tmp/scale"
    run_once "$tmp/scale" "$iolens" report -o "$tmp/scale.html" "$l"
    awk -v n="$n" -v s="$shape" '{ printf "%-10d %-28s %10.2f %12.1f\n", n, s, $1, $2 / 1024 }' \
      "$tmp/scale"
  done
done
