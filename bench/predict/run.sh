#!/bin/sh
# iolens predict against measurement on the benchmark set (bench/predict/,
# docs/predict.md "Benchmark set"). Builds each program with -g
# -finstrument-functions, runs it in a scratch folder under the runtime with
# call sites on (IOLENS_CALLSITES=1: its I/O calls' times by line, its
# functions' own times), writes its run file from `iolens callsites --json`,
# predicts it, and prints
# the Spearman rank correlation between predicted score and measured I/O
# intensity over all functions, with Table II's coefficients and with
# coefficients fitted on the other programs (leave one program out), and the
# programs whose most I/O-intensive function is predicted first; then the
# same measurements fitted other ways (alternatives.py).
# usage: run.sh IOLENS [WORKDIR]   (WORKDIR default: a new temporary folder)
set -eu
iolens=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/iolens-predict-bench.XXXXXX")}
mkdir -p "$work"
cc=${CC:-cc}
programs="extsort bfs checkpoint dataloader stencil iokernel logappend wordcount matmul kvstore"
runtime=${IOLENS_RUNTIME:-$(dirname "$iolens")/../lib/libiolens.so}
[ -f "$runtime" ] || { echo "run.sh: no runtime at $runtime (set IOLENS_RUNTIME)" >&2; exit 1; }

run_ns=0 predict_ns=0
for p in $programs; do
  src=$here/$p.c
  # -fno-inline: each function of the source keeps its own entry and exit
  $cc -O2 -g -fno-builtin -fno-inline -finstrument-functions -o "$work/$p" "$src"
  # three runs; the run file takes each function's and site's median
  t0=$(date +%s%N)
  for k in 1 2 3; do
    mkdir -p "$work/$p.d"
    rm -f "$work/$p.log$k"
    (cd "$work/$p.d" && IOLENS_CALLSITES=1 IOLENS_LOGFILE="$work/$p.log$k" \
        LD_PRELOAD="$runtime" "$work/$p" >/dev/null)
    rm -rf "$work/$p.d"
    "$iolens" callsites --json "$work/$p.log$k" > "$work/$p.sites$k.json"
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(json.dumps({"program": sys.argv[2], "sources": [sys.argv[3]], "functions": r["functions"],
                  "sites": r["sites"]}))' "$work/$p.sites$k.json" "$p" "$src" > "$work/$p.run$k.json"
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
python3 "$here/alternatives.py" "$work" $programs
lines=$(for p in $programs; do cat "$here/$p.c"; done | wc -l)
echo "analysis: $((predict_ns / 1000000)) ms for the ten programs ($lines lines); one run of each: $((run_ns / 1000000)) ms (instrumented)"
echo "(files in $work; the model fitted on all ten programs: $work/all.model)"
