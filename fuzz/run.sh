#!/bin/sh
# Build the fuzz targets with clang into build-fuzz/ and run each for a while.
#   fuzz/run.sh [SECONDS] [TARGET...]     default: 300 s each; fuzz_log fuzz_regions fuzz_cli
#                                         fuzz_convert fuzz_thresholds fuzz_merge fuzz_predict
#                                         fuzz_config fuzz_collect
# Environment: IOLENS_LOGS (folder of seed logs; default IOLENS_SHARED_LOGS if set,
#   else tests/data/darshan-logs, the real logs the tests read),
#   FUZZ_JOBS (parallel fuzzing processes, default 1), FUZZ_MAX_LEN (largest input,
#   default 131072: a small record file is 84 KiB), FUZZ_ARGS (more libFuzzer flags).
# Corpora live in fuzz/corpus-<target>/ (git-ignored) and grow across runs;
# crashes are written to fuzz/crash-* and reported at the end.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
build=${BUILD_FUZZ:-$src/build-fuzz}
logs=${IOLENS_LOGS:-${IOLENS_SHARED_LOGS:-$src/tests/data/darshan-logs}}
secs=${1:-300}
[ $# -gt 0 ] && shift
targets=${*:-fuzz_log fuzz_regions fuzz_cli fuzz_convert fuzz_thresholds fuzz_merge fuzz_predict
    fuzz_config fuzz_collect}
jobs=${FUZZ_JOBS:-1}

if [ ! -d "$logs" ]; then
    echo "fuzz/run.sh: no seed logs at $logs (set IOLENS_LOGS)" >&2
    exit 1
fi
CC=${CC:-clang} cmake -S "$src" -B "$build" -DIOLENS_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target mkseeds

# Seeds: the real logs as they are, re-encoded, and as decompressed regions.
seeds=$build/fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds/log" "$seeds/regions" "$seeds/thresholds" "$seeds/predict" "$seeds/config"
# the runtime's config file: one line of each kind of value
printf '%s\n' '# settings' 'MAX_RECORDS 64 POSIX,STDIO' 'MODMEM 2.5' 'NAMEMEM 0.5' \
    'NAME_EXCLUDE ^/tmp/.*\.tmp$,\.lock$ POSIX' 'NAME_INCLUDE ^/tmp/keep *' \
    'EXCLUDE_DIRS /proc/,/sys/' 'RANK_EXCLUDE 1:3,7' 'APP_EXCLUDE ^python' \
    'MOD_DISABLE HEATMAP' 'MOD_ENABLE DXT_POSIX' 'LOGPATH /tmp/logs' 'DXT_MEM 1.5' \
    'CALLSITES 1' 'CALLSITES_DEPTH 8' 'EVENTS file:/tmp/ev.jsonl' > "$seeds/config/site.conf"
# predict: the built-in model, and a run file of fuzz_predict's own source
cp "$src/bench/predict/calibrated.model" "$seeds/predict/calibrated.model"
printf '%s\n' '{"program": "p", "sources": ["/tmp/iolens-fuzz-predict.c"],' \
    ' "functions": [{"function": "save", "time": 0.002}, {"function": "sum", "time": 0.01}],' \
    ' "sites": [{"function": "save", "file": "/tmp/iolens-fuzz-predict.c", "line": 5,' \
    '   "module": "STDIO", "op": "write", "calls": 16, "bytes": 8192, "time": 0.0015}]}' \
    > "$seeds/predict/run.json"
printf '# site thresholds\nsmall-io.count = 500\nrank0-io.share=0.8  # comment\n\n' \
    > "$seeds/thresholds/site.conf"
find "$logs" -name '*.darshan' -exec "$build/fuzz/mkseeds" "$seeds/log" "$seeds/regions" {} +
cp "$src"/tests/bad-logs/*.darshan "$seeds/log/" 2>/dev/null || true
# logs of iolens's own modules, which the shared logs lack (fuzz/seeds/README.md)
find "$src/fuzz/seeds" -name '*.darshan' -exec "$build/fuzz/mkseeds" "$seeds/log" "$seeds/regions" {} +
# a record file, as a killed process leaves it (iolens_log_open reads those too), made
# small (4 records a module, 10 KiB of names: 84 KiB) by this build's runtime
cmake --build "$build" -j2 --target iolens-runtime >/dev/null
"${CC:-clang}" -o "$build/fuzz/recfile_seed" "$src/fuzz/recfile_seed.c"
rm -rf "$build/fuzz/recfile" && mkdir -p "$build/fuzz/recfile"
(cd "$build/fuzz/recfile" && IOLENS_MMAP_DIR=. IOLENS_MAX_RECORDS=4 IOLENS_NAMEMEM=0.01 \
    IOLENS_MOD_DISABLE=HEATMAP LD_PRELOAD="$build/lib/libiolens.so" \
    "$build/fuzz/recfile_seed" .) 2>/dev/null || true   # it kills itself
cp "$build/fuzz/recfile"/*.iolmap "$seeds/log/" ||
    { echo "fuzz/run.sh: recfile_seed left no record file" >&2; exit 1; }
# collect: the live events of the same calls, exiting normally (one JSON line each)
mkdir -p "$seeds/collect"
(cd "$build/fuzz/recfile" && IOLENS_EVENTS="file:$seeds/collect" \
    LD_PRELOAD="$build/lib/libiolens.so" "$build/fuzz/recfile_seed" . exit) ||
    { echo "fuzz/run.sh: recfile_seed exit failed" >&2; exit 1; }
ls "$seeds/collect"/*.jsonl >/dev/null || { echo "fuzz/run.sh: no events written" >&2; exit 1; }
maxlen=${FUZZ_MAX_LEN:-131072}
find "$seeds" -type f -size +"$maxlen"c -delete   # big inputs fuzz slowly

status=0
for t in $targets; do
    # Others' work in progress may not build: skip that target, run the rest.
    if ! cmake --build "$build" -j2 --target "$t" >"$build/fuzz/$t.build.log" 2>&1; then
        echo "== $t: does not build, skipped (see $build/fuzz/$t.build.log)"
        status=1
        continue
    fi
    corpus=$here/corpus-$t
    mkdir -p "$corpus"
    case $t in
        fuzz_regions) seed=$seeds/regions ;;
        fuzz_thresholds) seed=$seeds/thresholds ;;
        fuzz_predict) seed=$seeds/predict ;;
        fuzz_config) seed=$seeds/config ;;
        fuzz_collect) seed=$seeds/collect ;;
        *) seed=$seeds/log ;;
    esac
    extra=
    [ "$jobs" -gt 1 ] && extra="-jobs=$jobs -workers=$jobs"
    echo "== $t: $secs s, $jobs job(s)"
    # Run in the build directory: with -jobs, libFuzzer writes fuzz-N.log
    # files into the current directory.
    # shellcheck disable=SC2086
    (cd "$build/fuzz" && "$build/fuzz/$t" "$corpus" "$seed" -max_total_time="$secs" -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len="$maxlen" -print_final_stats=1 \
        -artifact_prefix="$here/crash-$t-" $extra \
        ${FUZZ_ARGS:-}) 2>&1 | tee "$build/fuzz/$t.log" | grep -E '^(#[0-9]+.*(pulse|DONE)|stat::|==[0-9]+==|SUMMARY|artifact|fuzz:)' || true
    if ls "$here"/crash-"$t"-* >/dev/null 2>&1; then
        echo "== $t: crashes:" && ls "$here"/crash-"$t"-*
        status=1
    fi
done
exit $status
