#!/bin/sh
# Overhead of the runtime per intercepted call, under threads, and at start-up:
# no runtime, libiolens.so, and the reference runtime when IOLENS_REF_LIB names
# one (Darshan's libdarshan.so), run interleaved (none, iolens, ref, none, ...).
#
# usage: bench/overhead.sh [BUILD_DIR]        (default: build)
# environment:
#   IOLENS_REF_LIB   the reference runtime to preload (optional)
#   BENCH_ROUNDS     interleaved rounds; medians are printed (default 7)
#   BENCH_SCALE      multiplies the iterations of each call loop (default 1)
#   BENCH_THREAD_N   64-byte writes per thread in the thread test (default 300000)
#   BENCH_SPAWNS     start-up runs per configuration (default 300)
#   BENCH_CALLGRIND  0 to skip the instruction counts (default 1 when valgrind exists)
#   BENCH_CG_N       iterations per call under callgrind (default 20000)
#   BENCH_DATA       directory for the files the calls use (default /dev/shm/iolens-bench.PID)
#   BENCH_TESTS      the calls to time (default: all of overhead.c's, see its top)
#   BENCH_DXT        1: DXT on in both runtimes (DXT_ENABLE_IO_TRACE=1), for the cost of
#                    a traced call (default 0)
#
# Both runtimes get DARSHAN_ENABLE_NONMPI=1, DARSHAN_EXCLUDE_DIRS=none (the
# data sit under /dev/shm, which both exclude by default) and a private
# DARSHAN_LOGPATH, removed at the end.
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
ref=${IOLENS_REF_LIB:-}
rounds=${BENCH_ROUNDS:-7}
scale=${BENCH_SCALE:-1}
thread_n=${BENCH_THREAD_N:-300000}
spawns=${BENCH_SPAWNS:-300}
cg_n=${BENCH_CG_N:-20000}
cg=${BENCH_CALLGRIND:-1}
command -v valgrind > /dev/null 2>&1 || cg=0
bench=$build/bench/overhead
noio=$build/bench/noio
lib=$(cd "$build/lib" 2>/dev/null && pwd)/libiolens.so

for f in "$bench" "$noio" "$lib"; do
  [ -e "$f" ] || { echo "overhead.sh: $f not built (run make first)" >&2; exit 1; }
done
[ -z "$ref" ] || [ -f "$ref" ] || { echo "overhead.sh: IOLENS_REF_LIB=$ref not found" >&2; exit 1; }

tmp=$(mktemp -d)
data=${BENCH_DATA:-/dev/shm/iolens-bench.$$}
mkdir -p "$data" "$tmp/logs"
trap 'rm -rf "$tmp" "$data"' EXIT
# The reference leaves a memory-mapped log behind in DARSHAN_MMAP_LOGPATH when a
# process execs (valgrind's launcher does): keep those in the private directory.
# iolens reads that name too, so its record file is kept at its default place.
export DARSHAN_ENABLE_NONMPI=1 DARSHAN_EXCLUDE_DIRS=none DARSHAN_LOGPATH="$tmp/logs" \
  DARSHAN_MMAP_LOGPATH="$tmp/logs" IOLENS_MMAP_DIR=/dev/shm
unset LD_PRELOAD IOLENS_LOGFILE DARSHAN_LOGFILE IOLENS_LOGPATH IOLENS_EXCLUDE_DIRS 2>/dev/null || true
unset DXT_ENABLE_IO_TRACE 2>/dev/null || true
# 64 MiB of segments for iolens too: every traced call of the run stores its
# segment in both runtimes (the reference was built --with-mod-mem=64), none
# is dropped as cheaper.
[ "${BENCH_DXT:-0}" != 1 ] || export DXT_ENABLE_IO_TRACE=1 IOLENS_DXT_MEM=64

cfgs="none iolens"
[ -z "$ref" ] || cfgs="$cfgs ref"

# preload_of CFG: the library to preload ("" for none).
preload_of() {
  case $1 in
    iolens) echo "$lib" ;;
    ref) echo "$ref" ;;
    *) echo "" ;;
  esac
}

# run CFG CMD...: CMD with CFG's library preloaded.
run() {
  p=$(preload_of "$1"); shift
  if [ -n "$p" ]; then LD_PRELOAD=$p "$@"; else "$@"; fi
}

label() {
  case $1 in
    write64) echo "write 64 B" ;; read64) echo "read 64 B" ;; pwrite4k) echo "pwrite 4 KiB" ;;
    openclose) echo "open+close" ;; stat) echo "stat" ;; lseek) echo "lseek" ;;
    fwrite64) echo "fwrite 64 B" ;; fopenclose) echo "fopen+fclose" ;;
    stat100) echo "stat 100 f" ;; stat5k) echo "stat 5000 f" ;; stat50k) echo "stat 50000 f" ;; statmiss) echo "stat missing" ;;
    *) echo "$1" ;;
  esac
}

tests=${BENCH_TESTS:-"write64 read64 pwrite4k openclose stat lseek fwrite64 fopenclose stat100 stat5k stat50k statmiss"}
threads="1 2 4"

echo "overhead.sh: $rounds interleaved rounds of: $cfgs${DXT_ENABLE_IO_TRACE:+ (DXT on)}"
echo "  iolens: $lib"
[ -z "$ref" ] || echo "  ref:    $ref"
echo "  data in $data; $(nproc) CPUs"
echo

# ---- timed runs, interleaved -------------------------------------------------
r=0
while [ $r -lt "$rounds" ]; do
  for c in $cfgs; do
    # shellcheck disable=SC2086
    run "$c" "$bench" calls -d "$data" -s "$scale" $tests >> "$tmp/calls.$c"
    for t in $threads; do
      run "$c" "$bench" threads -d "$data" -n "$thread_n" "$t" |
        awk '{ print $2, $3 }' >> "$tmp/threads.$c"
    done
  done
  rm -rf "$tmp/logs" && mkdir "$tmp/logs"
  r=$((r + 1))
done

echo "Nanoseconds per call (median of $rounds runs; +ns: added to the uninstrumented call;"
echo "ratio: iolens's added ns / the reference's)"
if [ -n "$ref" ]; then
  printf '%-13s %9s %9s %9s %9s %9s %7s\n' call none iolens ref "iolens+" "ref+" ratio
else
  printf '%-13s %9s %9s %9s\n' call none iolens "iolens+"
fi
for t in $tests; do
  n=$(median_at "$tmp/calls.none" "$t"); i=$(median_at "$tmp/calls.iolens" "$t")
  if [ -n "$ref" ]; then
    f=$(median_at "$tmp/calls.ref" "$t")
    echo "$n $i $f" | awk -v l="$(label "$t")" '{
      di = $2 - $1; dr = $3 - $1
      printf "%-13s %9.1f %9.1f %9.1f %9.1f %9.1f %7s\n", l, $1, $2, $3, di, dr,
             (dr > 0.5 ? sprintf("%.2f", di / dr) : "n/a") }'
  else
    echo "$n $i" | awk -v l="$(label "$t")" '{
      printf "%-13s %9.1f %9.1f %9.1f\n", l, $1, $2, $2 - $1 }'
  fi
done
echo

# ---- instruction counts ------------------------------------------------------
if [ "$cg" = 1 ]; then
  echo "Instructions per call (callgrind, user space, $cg_n calls; +: added per call)"
  if [ -n "$ref" ]; then
    printf '%-13s %9s %9s %9s %9s %9s %7s\n' call none iolens ref "iolens+" "ref+" ratio
  else
    printf '%-13s %9s %9s %9s\n' call none iolens "iolens+"
  fi
  for t in $tests; do
    line=""
    for c in $cfgs; do
      run "$c" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
        --collect-atstart=no --toggle-collect=bench_loop \
        "$bench" calls -d "$data" -n "$cg_n" -w 2000 "$t" > /dev/null 2>&1
      ir=$(awk '/^totals:/ { print $2 }' "$tmp/cg.out")
      line="$line $ir"
    done
    echo "$line" | awk -v l="$(label "$t")" -v n="$cg_n" -v has_ref="${ref:+1}" '{
      a = $1 / n; b = $2 / n
      if (has_ref) {
        c = $3 / n
        printf "%-13s %9.0f %9.0f %9.0f %9.0f %9.0f %7s\n", l, a, b, c, b - a, c - a,
               (c - a > 0.5 ? sprintf("%.2f", (b - a) / (c - a)) : "n/a")
      } else printf "%-13s %9.0f %9.0f %9.0f\n", l, a, b, b - a }'
  done
  rm -rf "$tmp/logs" && mkdir "$tmp/logs"
  echo
fi

# ---- threads ------------------------------------------------------------------
echo "Threads writing 64 B at once, each to its own file ($thread_n writes each; median of"
echo "$rounds runs): calls per second, and throughput relative to uninstrumented"
if [ -n "$ref" ]; then
  printf '%-8s %12s %12s %12s %8s %8s\n' threads none iolens ref "iolens%" "ref%"
else
  printf '%-8s %12s %12s %8s\n' threads none iolens "iolens%"
fi
for t in $threads; do
  n=$(median_at "$tmp/threads.none" "$t"); i=$(median_at "$tmp/threads.iolens" "$t")
  if [ -n "$ref" ]; then
    f=$(median_at "$tmp/threads.ref" "$t")
    echo "$n $i $f" | awk -v t="$t" '{
      printf "%-8s %12.0f %12.0f %12.0f %7.1f%% %7.1f%%\n", t, $1, $2, $3,
             100 * $2 / $1, 100 * $3 / $1 }'
  else
    echo "$n $i" | awk -v t="$t" '{
      printf "%-8s %12.0f %12.0f %7.1f%%\n", t, $1, $2, 100 * $2 / $1 }'
  fi
done
echo

# ---- start-up -----------------------------------------------------------------
echo "Start-up and exit of a process that does no I/O ($noio, $spawns runs each,"
echo "interleaved): median wall ms from spawn to main (start), from main to"
echo "reaped by the parent (exit), and from spawn to reaped (total); +: added"
set -- -p ""
for c in $cfgs; do
  [ "$c" = none ] || set -- "$@" -p "$(preload_of "$c")"
done
"$bench" spawn -m -n "$spawns" "$@" -- "$noio" > "$tmp/spawn"
printf "%-8s %8s %8s %8s %8s %8s %8s\n" config start exit total start+ exit+ total+
k=0
base=""
for c in $cfgs; do
  line=$(awk -v k="$k" '$2 == k { print $3, $5, $6 }' "$tmp/spawn")
  [ -n "$base" ] || base=$line
  echo "$c $line $base" | awk '{ printf "%-8s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f\n",
    $1, $3, $4, $2, $3 - $6, $4 - $7, $2 - $5 }'
  k=$((k + 1))
done
