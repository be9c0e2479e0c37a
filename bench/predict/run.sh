#!/bin/sh
# iolens predict against measurement on the benchmark set (bench/predict/,
# docs/predict.md "Benchmark set"). Builds each program with probe.c (its
# functions' own times and its I/O calls' times, until the runtime's call
# sites replace it), runs it in a scratch folder, predicts it, and prints
# the Spearman rank correlation between predicted score and measured I/O
# intensity over all functions, with Table II's coefficients and with
# coefficients fitted on the other programs (leave one program out), and the
# programs whose most I/O-intensive function is predicted first.
# usage: run.sh IOLENS [WORKDIR]   (WORKDIR default: a new temporary folder)
set -eu
iolens=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/iolens-predict-bench.XXXXXX")}
mkdir -p "$work"
cc=${CC:-cc}
programs="extsort bfs checkpoint dataloader stencil iokernel logappend wordcount matmul kvstore"
wraps="open close read write pread pwrite lseek fsync fopen fclose fread fwrite fgets fputs fputc fgetc fflush fseek unlink rename fprintf printf puts"
wrapflags=$(for w in $wraps; do printf ' -Wl,--wrap=%s' "$w"; done)

run_ns=0 predict_ns=0
for p in $programs; do
  src=$here/$p.c
  # probe.c is not instrumented; the program is, and its I/O calls go to the probe
  $cc -O2 -fno-builtin -c -o "$work/$p.probe.o" -DPROBE_PROGRAM="\"$p\"" \
      -DPROBE_SOURCE="\"$src\"" "$here/probe.c"
  $cc -O2 -fno-builtin -fno-inline -finstrument-functions -rdynamic -o "$work/$p" "$src" \
      "$work/$p.probe.o" $wrapflags -ldl
  # three runs; the run file takes each function's and site's median
  t0=$(date +%s%N)
  for k in 1 2 3; do
    mkdir -p "$work/$p.d"
    (cd "$work/$p.d" && PREDICT_RUN="$work/$p.run$k.json" "$work/$p" >/dev/null)
    rm -rf "$work/$p.d"
  done
  t1=$(date +%s%N)
  run_ns=$((run_ns + (t1 - t0) / 3))
  python3 "$here/median.py" "$work/$p.run1.json" "$work/$p.run2.json" "$work/$p.run3.json" \
      > "$work/$p.run.json"
  t0=$(date +%s%N)
  "$iolens" predict --json --model paper "$src" > "$work/$p.paper.json"
  t1=$(date +%s%N)
  predict_ns=$((predict_ns + t1 - t0))
done

# leave one program out: fit on the others, predict this one
for p in $programs; do
  others=$(for q in $programs; do [ "$q" = "$p" ] || printf '%s ' "$work/$q.run.json"; done)
  "$iolens" predict --calibrate -o "$work/$p.lopo.model" $others > "$work/$p.lopo.fit"
  "$iolens" predict --json --model "$work/$p.lopo.model" "$here/$p.c" > "$work/$p.lopo.json"
done
# the model of the whole set, and its fit
runs=$(for q in $programs; do printf '%s ' "$work/$q.run.json"; done)
"$iolens" predict --calibrate -o "$work/all.model" $runs > "$work/all.fit"

python3 "$here/evaluate.py" "$work" $programs
lines=$(for p in $programs; do cat "$here/$p.c"; done | wc -l)
echo "analysis: $((predict_ns / 1000000)) ms for the ten programs ($lines lines); one run of each: $((run_ns / 1000000)) ms (instrumented)"
echo "(files in $work; the model fitted on all ten programs: $work/all.model)"
