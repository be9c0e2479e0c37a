#!/bin/sh
# iolens export on every real log (tests/data/darshan-logs' index.tsv): JSON, CSV
# and Perfetto output checked by export_check.py against the schema
# (docs/export.schema.json), `iolens parse` and `iolens dxt`; and the JSON of a
# converted log equal to the original's but for the log's version, compression
# and record versions.
#   export_test.sh IOLENS LOGDIR SCHEMA
set -u
iolens=$1 logs=$2 schema=$3
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$logs/index.tsv" ] || { echo "FAIL: no index.tsv in $logs"; exit 1; }
command -v python3 > /dev/null || { echo "FAIL: python3 not found (scripts/install-deps)"; exit 1; }
export TZ=UTC
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-export.XXXXXX")
trap 'rm -rf "$t"' EXIT
failures=0 n=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for log in $(tail -n +2 "$logs/index.tsv" | cut -f1); do
  in=$logs/$log
  n=$((n + 1))
  rm -rf "$t/csv"
  "$iolens" export --format json -o "$t/log.json" "$in" 2> "$t/err" || { fail "$log: json: $(cat "$t/err")"; continue; }
  "$iolens" export --format csv -o "$t/csv" "$in" > /dev/null 2> "$t/err" || { fail "$log: csv: $(cat "$t/err")"; continue; }
  "$iolens" export --format perfetto "$in" > "$t/trace.json" 2> "$t/err" || { fail "$log: perfetto: $(cat "$t/err")"; continue; }
  "$iolens" parse --show-incomplete "$in" > "$t/parse" 2>/dev/null
  "$iolens" dxt "$in" > "$t/dxt" 2>/dev/null
  python3 "$here/export_check.py" "$schema" "$t/log.json" "$t/csv" "$t/trace.json" "$t/parse" "$t/dxt" ||
    failures=$((failures + 1))
  # A converted log exports the same records.
  "$iolens" convert "$in" "$t/conv.darshan" 2>/dev/null &&
    "$iolens" export --format json "$t/conv.darshan" > "$t/conv.json" 2>/dev/null ||
    { fail "$log: convert then export"; continue; }
  python3 - "$t/log.json" "$t/conv.json" <<'PY' || fail "$log: the converted log exports differently"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d.pop("log")
    d["job"].pop("run_time")
    for m in d["modules"]:
        m.pop("log_version")
sys.exit(0 if a == b else 1)
PY
done
echo "export: $n logs, $failures failures"
[ $failures = 0 ]
