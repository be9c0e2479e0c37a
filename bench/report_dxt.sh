#!/bin/sh
# iolens report on large DXT traces: a program of THREADS threads makes
# 1,000,000 traced 64-byte writes in all under the runtime (IOLENS_DXT_MEM=64
# holds them), then `iolens report` is timed with its peak RSS, and the page's
# load in headless Chromium (wall time of --dump-dom, and the page's own
# data-render-ms). Figures: docs/report.md, "Bounds: large logs".
#
# usage: bench/report_dxt.sh [BUILD_DIR] [THREADS]   (defaults: build, 1)
# environment: BENCH_WRITES (default 1000000), BENCH_RUNS (default 3).
set -eu
build=${1:-build}
threads=${2:-1}
writes=${BENCH_WRITES:-1000000}
runs=${BENCH_RUNS:-3}
iolens=$(realpath "$build/bin/iolens")
writers=$(realpath "$build/bin/dxt_writers")
runtime=$(realpath "$build/lib/libiolens.so")
browser=$(command -v chromium || command -v chromium-browser || true)
[ -x /usr/bin/time ] || { echo "report_dxt.sh: /usr/bin/time missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
env DXT_ENABLE_IO_TRACE=1 IOLENS_DXT_MEM=64 IOLENS_MMAP_DIR="$tmp" IOLENS_LOGFILE="$tmp/dxt.darshan" \
  LD_PRELOAD="$runtime" "$writers" "$tmp/data" "$threads" $((writes / threads))
rm -f "$tmp/data"
echo "log: $(wc -c < "$tmp/dxt.darshan") bytes, $("$iolens" dxt "$tmp/dxt.darshan" | grep -c '^ X_') segments, $threads thread(s)"
for i in $(seq "$runs"); do
  /usr/bin/time -f "iolens report: %e s, peak RSS %M KB" "$iolens" report -o "$tmp/dxt.html" "$tmp/dxt.darshan"
done
echo "page: $(wc -c < "$tmp/dxt.html") bytes"
[ -n "$browser" ] || { echo "no chromium: page load not measured"; exit 0; }
for i in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
    --dump-dom "file://$tmp/dxt.html" 2> /dev/null > "$tmp/dom.html"
  echo "chromium load: $(echo "$(date +%s.%N) - $start" | bc) s wall," \
    "$(grep -o 'data-render-ms="[0-9]*"' "$tmp/dom.html") $(grep -o 'data-status="[a-z]*"' "$tmp/dom.html")"
done
