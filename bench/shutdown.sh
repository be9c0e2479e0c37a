#!/bin/sh
# Time a runtime adds at the end of a process that touched many files, the
# size of the log per record, and peak memory: one process creates N files
# (open, write 16 bytes, close) and returns from main; N = 1, 1,000, 10,000,
# 100,000. Runs with no runtime, with libiolens.so at its default settings,
# and with the reference runtime when IOLENS_REF_LIB names one, interleaved.
#
# usage: bench/shutdown.sh [BUILD_DIR]        (default: build)
# environment:
#   IOLENS_REF_LIB     the reference runtime (Darshan's libdarshan.so), optional
#   IOLENS_REF_PARSER  darshan-parser, to count the records of every log
#                      (default: BUILD_DIR/bin/iolens parse)
#   BENCH_COUNTS       file counts (default "1 1000 10000 100000")
#   BENCH_ROUNDS       runs per count and runtime; medians are printed (default 5)
#   BENCH_DATA         where the files are created (default /dev/shm/iolens-shutdown.PID)
#
# "exit ms" is the time from the program's last close to its exit as its
# parent sees it (wait4 returning); "added" subtracts the same time without a
# runtime; "exit CPU" is the CPU time (ms, all threads) used in that span, which
# a busy machine does not inflate the way it does wall time. Peak memory is the child's ru_maxrss (what /usr/bin/time -f %M
# prints). Both runtimes get DARSHAN_EXCLUDE_DIRS=none (the files sit under
# /dev/shm, which both exclude by default). The reference keeps 1,024 records
# per module by default; it is given room for every file here
# (DARSHAN_MODMEM, DARSHAN_NAMEMEM and a config file with MAX_RECORDS), so that
# its bytes per record compare; iolens gets no such setting.
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
ref=${IOLENS_REF_LIB:-}
parser=${IOLENS_REF_PARSER:-}
counts=${BENCH_COUNTS:-1 1000 10000 100000}
rounds=${BENCH_ROUNDS:-5}
bench=$build/bench/shutdown
iolens=$build/bin/iolens
lib=$(cd "$build/lib" 2>/dev/null && pwd)/libiolens.so

for f in "$bench" "$iolens" "$lib"; do
  [ -e "$f" ] || { echo "shutdown.sh: $f not built (run make first)" >&2; exit 1; }
done
[ -z "$ref" ] || [ -f "$ref" ] || { echo "shutdown.sh: IOLENS_REF_LIB=$ref not found" >&2; exit 1; }
[ -n "$parser" ] || parser="$iolens parse"

tmp=$(mktemp -d)
data=${BENCH_DATA:-/dev/shm/iolens-shutdown.$$}
trap 'rm -rf "$tmp" "$data"' EXIT
unset LD_PRELOAD IOLENS_LOGFILE DARSHAN_LOGFILE IOLENS_LOGPATH IOLENS_EXCLUDE_DIRS \
  IOLENS_MAX_RECORDS IOLENS_MODMEM IOLENS_NAMEMEM DARSHAN_MODMEM DARSHAN_NAMEMEM \
  DARSHAN_CONFIG_PATH 2>/dev/null || true
export DARSHAN_ENABLE_NONMPI=1 DARSHAN_EXCLUDE_DIRS=none

cfgs="none iolens"
[ -z "$ref" ] || cfgs="$cfgs ref"

max=0
for n in $counts; do [ "$n" -le "$max" ] || max=$n; done
# Room for every record in the reference: 1 KiB per POSIX record, 256 bytes per name.
ref_modmem=$(( (max * 1024 >> 20) + 8 ))
ref_namemem=$(( (max * 256 >> 20) + 4 ))
echo "MAX_RECORDS $((max + 100)) POSIX,STDIO" > "$tmp/ref.conf"

# one CFG N: run once; append "exit_ms work_ms rss_kb log_bytes records exit_cpu_ms"
# to $tmp/CFG.N.
one() {
  cfg=$1 n=$2
  rm -rf "$data" "$tmp/logs"
  mkdir -p "$data" "$tmp/logs"
  case $cfg in
    none) line=$("$bench" run "$n" "$data") ;;
    iolens) line=$(DARSHAN_LOGPATH="$tmp/logs" "$bench" run -p "$lib" "$n" "$data") ;;
    ref) line=$(DARSHAN_LOGPATH="$tmp/logs" DARSHAN_MMAP_LOGPATH="$tmp/logs" \
                DARSHAN_MODMEM=$ref_modmem DARSHAN_NAMEMEM=$ref_namemem \
                DARSHAN_CONFIG_PATH="$tmp/ref.conf" "$bench" run -p "$ref" "$n" "$data") ;;
  esac
  bytes=0 recs=0
  if [ "$cfg" != none ]; then
    log=$(find "$tmp/logs" -name '*.darshan' ! -name '*mmap-log*' | head -n 1)
    [ -n "$log" ] || { echo "shutdown.sh: $cfg wrote no log" >&2; exit 1; }
    bytes=$(wc -c < "$log")
    if [ ! -f "$tmp/$cfg.$n.recs" ]; then  # count once per runtime and size
      $parser "$log" | grep -c "	POSIX_OPENS	" > "$tmp/$cfg.$n.recs" || true
    fi
    recs=$(cat "$tmp/$cfg.$n.recs")
  fi
  echo "$line" | awk -v b="$bytes" -v r="$recs" '{ print $2, $3, $4, b, r, $5 }' >> "$tmp/$cfg.$n"
}

echo "shutdown.sh: $rounds interleaved rounds of: $cfgs; files in $data; $(nproc) CPUs"
[ -z "$ref" ] || echo "  reference: $ref (DARSHAN_MODMEM=$ref_modmem DARSHAN_NAMEMEM=$ref_namemem, MAX_RECORDS $((max + 100)))"
echo "  records counted with: $parser"
echo
printf '%8s %-7s %9s %9s %9s %9s %10s %9s %9s %9s\n' files runtime "exit ms" "added ms" \
  "exit CPU" records "log bytes" "B/record" "peak MB" "work ms"
for n in $counts; do
  r=0
  while [ $r -lt "$rounds" ]; do
    for c in $cfgs; do one "$c" "$n"; done
    r=$((r + 1))
  done
  base=$(median "$tmp/none.$n" 1)
  for c in $cfgs; do
    f=$tmp/$c.$n
    echo "$n $c $(median "$f" 1) $base $(median "$f" 5) $(median "$f" 4) $(median "$f" 3) $(median "$f" 2) $(median "$f" 6)" |
      awk '{ added = $2 == "none" ? "-" : sprintf("%.1f", $3 - $4)
             recs = $2 == "none" ? "-" : $5; bytes = $2 == "none" ? "-" : $6
             bpr = ($2 == "none" || $5 == 0) ? "-" : sprintf("%.1f", $6 / $5)
             printf "%8d %-7s %9.1f %9s %9.1f %9s %10s %9s %9.1f %9.0f\n", $1, $2, $3, added, $9,
                    recs, bytes, bpr, $7 / 1024, $8 }'
  done
done
