#!/bin/sh
# Time `iolens ingest` of many logs into SQLite and PostgreSQL.
#
#   bench/ingest.sh [BUILD]
#
# relabel_logs writes BENCH_LOGS logs (default 10,000) from the real logs of
# tests/data/darshan-logs, each with its own job id (1,000 per folder); each
# database is filled from empty with -j BENCH_JOBS (default 2), then given
# the same logs again (all already stored). PostgreSQL is a server of the
# benchmark's own in a temporary directory (tests/db/servers.sh), fsync off.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${BENCH_LOGS:-10000}
jobs=${BENCH_JOBS:-2}
iolens=$build/bin/iolens
[ -x "$build/bench/relabel_logs" ] || { echo "bench: build first (make)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/iolens-bench-ingest.XXXXXX")
. "$top/tests/db/servers.sh"
trap stop_servers EXIT

mkdir -p "$work/logs"
# shellcheck disable=SC2046
"$build/bench/relabel_logs" "$n" "$work/logs" $(find "$top/tests/data/darshan-logs" -name '*.darshan' | sort)
size=$(du -sm "$work/logs" | cut -f1)
start_pg

field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$@"; }

printf '%-11s %-7s %7s %9s %9s %9s\n' database run logs records seconds logs/s
for db in sqlite postgresql; do
    case $db in
        sqlite) url="sqlite:$work/bench.db" ;;
        postgresql) url=$pg_url ;;
    esac
    for run in first again; do
        out=$("$iolens" ingest --db "$url" -j "$jobs" --json "$work/logs")
        s=$(field "$out" seconds)
        printf '%-11s %-7s %7s %9s %9s %9.0f\n' "$db" "$run" "$(field "$out" logs)" \
            "$(field "$out" records)" "$s" "$(awk -v n="$n" -v s="$s" 'BEGIN { print n / s }')"
    done
done
echo "($n logs, $size MiB, from $(find "$top/tests/data/darshan-logs" -name '*.darshan' | wc -l) real logs; -j $jobs; $(nproc) CPUs)"
