#!/bin/sh
# Time of MPI_Finalize and log bytes per record under the runtime, against no
# runtime and the reference (Darshan's libdarshan.so built with MPI) when
# IOLENS_REF_LIB names it: N ranks (BENCH_RANKS, default "2 4 8"), each
# touching K files (BENCH_K, default "1 1024") in three patterns: one shared
# file (K = 1 only), K shared files, K files per process. Runs interleaved
# (none, iolens, ref, none, ...), BENCH_ROUNDS times (default 3); medians.
#
# usage: bench/shutdown-mpi.sh [BUILD_DIR]        (default: build)
# environment:
#   IOLENS_REF_LIB     the reference runtime (optional)
#   IOLENS_REF_PARSER  counts records (default: iolens parse)
#   BENCH_DATA         directory for the files (default /dev/shm/iolens-shutdown-mpi.PID)
#
# Both runtimes get DARSHAN_EXCLUDE_DIRS=none (the files sit under /dev/shm)
# and a private DARSHAN_LOGPATH; the reference also gets room for every
# record (MAX_RECORDS), as bench/shutdown.sh gives it.
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
ref=${IOLENS_REF_LIB:-}
parser=${IOLENS_REF_PARSER:-}
ranks=${BENCH_RANKS:-2 4 8}
ks=${BENCH_K:-1 1024}
rounds=${BENCH_ROUNDS:-3}
bench=$build/bench/shutdown_mpi
iolens=$build/bin/iolens
lib=$(cd "$build/lib" 2>/dev/null && pwd)/libiolens.so

for f in "$bench" "$iolens" "$lib"; do
  [ -e "$f" ] || { echo "shutdown-mpi.sh: $f not built (make, with MPI installed)" >&2; exit 1; }
done
command -v mpirun > /dev/null || { echo "shutdown-mpi.sh: no mpirun" >&2; exit 1; }
[ -z "$ref" ] || [ -f "$ref" ] || { echo "shutdown-mpi.sh: IOLENS_REF_LIB=$ref not found" >&2; exit 1; }
[ -n "$parser" ] || parser="$iolens parse"

tmp=$(mktemp -d)
data=${BENCH_DATA:-/dev/shm/iolens-shutdown-mpi.$$}
trap 'rm -rf "$tmp" "$data"' EXIT
unset LD_PRELOAD IOLENS_LOGFILE DARSHAN_LOGFILE IOLENS_LOGPATH IOLENS_EXCLUDE_DIRS \
  DARSHAN_ENABLE_NONMPI DARSHAN_CONFIG_PATH 2>/dev/null || true
export DARSHAN_EXCLUDE_DIRS=none OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "MAX_RECORDS 20000 POSIX,STDIO,MPI-IO" > "$tmp/ref.conf"

cfgs="none iolens"
[ -z "$ref" ] || cfgs="$cfgs ref"

# one CFG N PATTERN K: run once; append "finalize_ms log_bytes records" to $tmp/CFG.N.PATTERN.K
one() {
  cfg=$1 n=$2 pat=$3 k=$4
  rm -rf "$data" "$tmp/logs"
  mkdir -p "$data" "$tmp/logs"
  case $cfg in
    none) pre= ;;
    iolens) pre=$lib ;;
    ref) pre=$ref ;;
  esac
  mpirun --oversubscribe -np "$n" env LD_PRELOAD="$pre" DARSHAN_LOGPATH="$tmp/logs" \
    DARSHAN_CONFIG_PATH="$tmp/ref.conf" DARSHAN_MODMEM=64 DARSHAN_NAMEMEM=16 \
    "$bench" "$pat" "$k" "$data" > "$tmp/out" 2>&1 ||
    { echo "shutdown-mpi.sh: $cfg $n $pat $k failed:" >&2; cat "$tmp/out" >&2; exit 1; }
  ms=$(cat "$data"/finalize.* | sort -g | tail -n 1)
  bytes=0 recs=0
  if [ "$cfg" != none ]; then
    set -- "$tmp"/logs/*.darshan
    [ $# -eq 1 ] && [ -f "$1" ] || { echo "shutdown-mpi.sh: $cfg left $# logs, expected 1" >&2; exit 1; }
    bytes=$(wc -c < "$1")
    recs=$($parser "$1" | grep -c "	POSIX_OPENS	" || true)
  fi
  echo "$ms $bytes $recs" >> "$tmp/$cfg.$n.$pat.$k"
}

echo "shutdown-mpi.sh: $rounds interleaved rounds of: $cfgs; files in $data; $(nproc) CPUs"
[ -z "$ref" ] || echo "  reference: $ref"
echo "  records (POSIX, rank -1 counted once) counted with: $parser"
echo
printf '%5s %-8s %5s %-7s %12s %10s %9s %9s\n' ranks pattern K runtime "finalize ms" "log bytes" \
  records "B/record"
for n in $ranks; do
  for k in $ks; do
    for pat in shared fpp; do
      r=0
      while [ $r -lt "$rounds" ]; do
        for c in $cfgs; do one "$c" "$n" "$pat" "$k"; done
        r=$((r + 1))
      done
      for c in $cfgs; do
        f=$tmp/$c.$n.$pat.$k
        label=$pat
        [ "$pat" = shared ] && [ "$k" = 1 ] && label=one-file
        echo "$n $label $k $c $(median "$f" 1) $(median "$f" 2) $(median "$f" 3)" |
          awk '{ bpr = ($4 == "none" || $7 == 0) ? "-" : sprintf("%.1f", $6 / $7)
                 printf "%5d %-8s %5d %-7s %12.1f %10s %9s %9s\n", $1, $2, $3, $4, $5,
                        ($4 == "none" ? "-" : $6), ($4 == "none" ? "-" : $7), bpr }'
      done
    done
  done
done
