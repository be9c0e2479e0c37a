#!/bin/sh
# iolens insights on the shared real logs, its thresholds and its errors.
#
#   cli.sh IOLENS INSIGHTS_MD LOGS
#
# - every log of LOGS/index.tsv is analysed (exit 0, text and JSON); for the
#   logs real_logs.txt lists, the findings are those it gives (the partial
#   log's partial-log among them);
# - --set and --thresholds change what fires; bad ones are usage errors
#   (exit 2, one line); an unreadable log is exit 1 with one line;
# - the tables between the markers of docs/insights.md are what
#   `iolens insights --list` prints (the rule and threshold tables are the
#   docs' source).
set -eu
export LC_ALL=C
iolens=$1 md=$2 logs=$3
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-insc.XXXXXX")
trap 'rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

findings() {
    grep -o '"id": "[a-z0-9-]*", "severity": "[a-z]*"' "$1" |
        sed 's/"id": "\([^"]*\)", "severity": "\([^"]*\)"/\1:\2/' | paste -sd, - || true
}

# 1. The real logs.
n=0
for log in $(tail -n +2 "$logs/index.tsv" | cut -f1); do
    n=$((n + 1))
    if ! "$iolens" insights "$logs/$log" > "$t/text" 2> "$t/err" ||
       ! "$iolens" insights --json "$logs/$log" > "$t/json" 2>> "$t/err"; then
        fail "$log: exit $?: $(cat "$t/err")"
        continue
    fi
    [ -s "$t/err" ] && fail "$log: stderr: $(cat "$t/err")"
    want=$(awk -v l="$log" '$1 == l { print $2 }' "$here/real_logs.txt")
    [ -n "$want" ] || continue
    got=$(findings "$t/json")
    [ -n "$got" ] || got=-
    [ "$got" = "$want" ] || fail "$log: findings $got, expected $want"
done
[ "$n" -gt 0 ] || fail "no logs in $logs/index.tsv"
echo "ok: $n real logs analysed"

# 2. Thresholds: a flag and a file silence the finding the defaults give.
ior=$logs/ior_pnetcdf_hdf5/shane_ior-HDF5_id438090-438090_11-9-41522-17417065676046418211_1.darshan
"$iolens" insights --json "$ior" > "$t/json"
case $(findings "$t/json") in *misaligned-io:high*) ;; *) fail "IOR log: no misaligned-io by default" ;; esac
"$iolens" insights --json --set 'misaligned-io.share = 0.95' "$ior" > "$t/json"
case $(findings "$t/json") in *misaligned-io*) fail "--set misaligned-io.share=0.95 left it" ;; esac
printf '# raise it\nmisaligned-io.share = 0.95   # above 93%%\n\n' > "$t/th"
"$iolens" insights --json --thresholds "$t/th" "$ior" > "$t/json"
case $(findings "$t/json") in *misaligned-io*) fail "--thresholds file left misaligned-io" ;; esac
# --set comes after the file
"$iolens" insights --json --thresholds "$t/th" --set misaligned-io.share=0.1 "$ior" > "$t/json"
case $(findings "$t/json") in *misaligned-io*) ;; *) fail "--set did not override the file" ;; esac
echo "ok: thresholds from flags and file"

# 3. Errors: usage (2) and unreadable logs (1), one line each.
one_line() { # STATUS WHAT COMMAND...
    want=$1 what=$2
    shift 2
    set +e
    "$@" > /dev/null 2> "$t/err"
    rc=$?
    set -e
    [ "$rc" = "$want" ] || fail "$what: exit $rc, expected $want"
    [ "$(wc -l < "$t/err")" = 1 ] || fail "$what: stderr is not one line: $(cat "$t/err")"
    grep -q '^iolens insights: ' "$t/err" || fail "$what: $(cat "$t/err")"
}
one_line 2 "unknown threshold" "$iolens" insights --set nope=1 "$ior"
one_line 2 "not a number" "$iolens" insights --set small-io.count=many "$ior"
one_line 2 "negative" "$iolens" insights --set small-io.count=-1 "$ior"
printf 'small-io.count = 5\nbogus line\n' > "$t/bad"
one_line 2 "bad file" "$iolens" insights --thresholds "$t/bad" "$ior"
grep -q 'line 2' "$t/err" || fail "bad file: no line number: $(cat "$t/err")"
one_line 2 "missing file" "$iolens" insights --thresholds "$t/none" "$ior"
one_line 2 "no log" "$iolens" insights
one_line 2 "two logs" "$iolens" insights "$ior" "$ior"
one_line 1 "missing log" "$iolens" insights "$t/none.darshan"
echo 'not a log' > "$t/notlog"
one_line 1 "not a log" "$iolens" insights "$t/notlog"
echo "ok: usage errors and unreadable logs"

# 4. The docs' tables.
"$iolens" insights --list > "$t/list"
sed -n '/^<!-- iolens insights --list -->$/,/^<!-- end of iolens insights --list -->$/p' "$md" |
    sed '1d;$d' > "$t/doc"
if ! cmp -s "$t/list" "$t/doc"; then
    fail "docs/insights.md's tables differ from 'iolens insights --list' (regenerate them):"
    diff "$t/doc" "$t/list" || true
fi
echo "ok: docs/insights.md tables"

[ "$fails" -eq 0 ] || { echo "FAIL: $fails check(s)"; exit 1; }
