#!/bin/sh
# Call sites of the H5D and PNETCDF_VAR modules: a workload of tests/hdf5 or
# tests/pnetcdf run under the runtime with IOLENS_CALLSITES=1, its log read
# with `iolens callsites --json`. Every site of the module must be a line of
# the workload's source that calls the library, the operation matching:
# H5Dwrite, H5Dread, H5Dcreate/H5Dopen/H5Oopen, H5Dflush, H5Dclose/H5Oclose;
# ncmpi_*put*, ncmpi_*get*, ncmpi_def_var/ncmpi_inq_varid. At least 3 lines;
# the sites' calls and bytes must add up to the module's counters in the
# same log (iolens parse; closes, which have no counter, must have a site).
#
#   rt_callsites_lib.sh LIB IOLENS h5d|pnetcdf PROG SRC NPROCS
#
# NPROCS > 1: PROG runs under mpirun. The sanitizer set-up is ../lib/preload.sh.
set -eu
[ $# -eq 6 ] || { echo "usage: $0 LIB IOLENS h5d|pnetcdf PROG SRC NPROCS" >&2; exit 2; }
lib=$1 iolens=$2 kind=$3 prog=$4 src=$5 np=$6
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0"  # Open MPI's and HDF5's leaks
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-cslib.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir "$t/w" "$t/logs"
fail() { echo "FAIL ($kind): $*"; [ ! -f "$t/err" ] || sed 's/^/  stderr: /' "$t/err"; exit 1; }
[ -x "$prog" ] || fail "no workload $prog"
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
cd "$t/w"  # h5_serial also creates a file in the current directory
case $iolens in /*) ;; *) iolens=$OLDPWD/$iolens ;; esac
case $src in /*) ;; *) src=$OLDPWD/$src ;; esac
if [ "$np" -gt 1 ]; then
    env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 IOLENS_LOGPATH="$t/logs" \
        IOLENS_CALLSITES=1 mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$preload" \
        -x IOLENS_LOGPATH -x IOLENS_CALLSITES "$prog" "$t/w" > "$t/out" 2> "$t/err" ||
        fail "mpirun $prog: exit status $?"
else
    env -u IOLENS_CONFIG_PATH IOLENS_LOGPATH="$t/logs" IOLENS_CALLSITES=1 \
        LD_PRELOAD="$preload" "$prog" "$t/w" > "$t/out" 2> "$t/err" || fail "$prog: exit status $?"
fi
set -- "$t"/logs/*.darshan
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one log"
"$iolens" callsites --json "$1" > "$t/cs.json" 2> "$t/err" || fail "iolens callsites failed"
"$iolens" parse "$1" > "$t/parse.txt" 2> "$t/err" || fail "iolens parse failed"
python3 - "$kind" "$t/cs.json" "$t/parse.txt" "$src" "$(basename "$prog")" <<'PY' || fail "sites wrong (above)"
import json, os, re, sys
kind, cs_json, parse_txt, src, prog = sys.argv[1:6]
if kind == "h5d":
    module = "H5D"
    calls = {"write": r"\bH5Dwrite\(", "read": r"\bH5Dread\(",
             "open": r"\bH5(D(create|open)[12]?|Oopen(_by_[a-z]+)?)\(",
             "flush": r"\bH5Dflush\(", "close": r"\bH5[DO]close\("}
    counters = {"write": ["H5D_WRITES"], "read": ["H5D_READS"], "open": ["H5D_OPENS"],
                "flush": ["H5D_FLUSHES"], "close": []}
    nbytes = {"write": "H5D_BYTES_WRITTEN", "read": "H5D_BYTES_READ"}
else:
    module = "PNETCDF_VAR"
    calls = {"write": r"\bncmpi_[a-z]*put_", "read": r"\bncmpi_[a-z]*get_",
             "open": r"\bncmpi_(def_var|inq_varid)\("}
    counters = {op: ["PNETCDF_VAR_%s_%s" % (m, op.upper() + "S") for m in ("INDEP", "COLL", "NB")]
                for op in ("write", "read")}
    counters["open"] = ["PNETCDF_VAR_OPENS"]
    nbytes = {"write": "PNETCDF_VAR_BYTES_WRITTEN", "read": "PNETCDF_VAR_BYTES_READ"}
lines = {op: {i + 1 for i, l in enumerate(open(src)) if re.search(rx, l) and "*" not in l[:3]}
         for op, rx in calls.items()}
want = {op: [0, 0] for op in calls}
for l in open(parse_txt):
    f = l.split("\t")
    if len(f) > 4 and f[0] == module:
        for op in calls:
            if f[3] in counters[op]:
                want[op][0] += int(f[4])
            if f[3] == nbytes.get(op):
                want[op][1] += int(f[4])
# closes have no counter: their sites' calls are not compared
if "close" in want:
    want["close"] = None
got = {op: [0, 0] for op in calls}
seen = set()
sanitized = os.environ.get("IOLENS_TEST_SANITIZE", "OFF") == "ON"
for s in json.load(open(cs_json))["sites"]:
    if s["module"] != module:
        continue
    fr = [f for f in s["frames"] if f["object"].endswith("/" + prog)]
    if not fr or (not sanitized and fr[0] is not s["frames"][0]):
        print("innermost frame not in the program:", s); sys.exit(1)
    line = fr[0]["line"]
    if (s["op"] not in lines or os.path.basename(fr[0]["file"]) != os.path.basename(src)
            or line not in lines[s["op"]]):
        print("site not on a %s call of %s:" % (s["op"], src), s); sys.exit(1)
    seen.add(line)
    got[s["op"]][0] += s["calls"]
    got[s["op"]][1] += s["bytes"]
if "close" in got:
    got["close"] = None if got["close"][0] > 0 else got["close"]
if got != want or len(seen) < 3:
    print("calls and bytes by op: sites", got, "counters", want, "lines", sorted(seen)); sys.exit(1)
print("%d lines; calls and bytes %s as the counters" % (len(seen), got))
PY
echo "ok ($kind)"
