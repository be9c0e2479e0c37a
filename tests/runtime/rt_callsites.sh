#!/bin/sh
# The CALLSITES module: cs_prog.c (built here with -g -finstrument-functions)
# under the runtime, its log read with `iolens callsites --json`.
#
#   rt_callsites.sh LIB IOLENS CASE
#
# CASE: exact (IOLENS_CALLSITES=1: exactly cs_prog's lines, with their
# functions, modules, operations, calls and bytes; its functions' own times
# positive, each at most its inclusive time, the two that only make I/O
# calls at least 0.4 I/O, main's inclusive time at least
# the others' own times together; main writes one line after the others),
# `iolens insights` shows the top lines), off (no CALLSITES module by default, and
# `iolens callsites` fails in one line), full (CALLSITES_MAX=2: two sites
# kept, the other calls counted as lost, the module partial), darshan
# (Darshan 3.5's darshan-parser skips module 62 with its warning and prints
# the POSIX records), stacks (cs_stacks.c built with -O0 and -O2, at depths 8
# and 1: every site's frames a path of its call graph through frames kept
# with RBP, variable-length arrays, alloca, a realigned frame, recursion and
# threads, and through a signal handler's frame; all its writes counted),
# mpi (cs_prog built with mpicc, 2 ranks: each line's calls and bytes twice
# cs_prog's, and its MPI-IO open, write, sync and close; the job log is
# written in MPI_Finalize, before main returns: main's line after it and
# main's own time are not in it), clang (exact's checks on cs_prog built by
# clang: DWARF 5 without .debug_aranges). The sanitizer set-up is
# ../lib/preload.sh.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 LIB IOLENS CASE" >&2; exit 2; }
lib=$1 iolens=$2 case=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0"  # Open MPI's leaks, in the mpi case
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-cs.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/d" "$t/logs"
fail() { echo "FAIL ($case): $*"; [ ! -f "$t/err" ] || sed 's/^/  stderr: /' "$t/err"; exit 1; }

cc=${IOLENS_TEST_CC:-cc}
src=$here/cs_prog.c
if [ "$case" = mpi ]; then
    command -v mpicc >/dev/null && command -v mpirun >/dev/null ||
        fail "mpicc and mpirun are needed (openmpi-bin, libopenmpi-dev: scripts/install-deps)"
    mpicc -DCS_MPI -g -O1 -fno-inline -finstrument-functions -o "$t/cs_prog" "$src" ||
        fail "mpicc failed"
elif [ "$case" = clang ]; then
    # clang writes DWARF 5 without .debug_aranges, the index libdwfl looks
    # lines up in: iolens callsites must find them through the compile units
    command -v clang >/dev/null || fail "clang is needed (scripts/install-deps)"
    clang -g -O1 -fno-inline -finstrument-functions -o "$t/cs_prog" "$src" || fail "clang failed"
    if readelf -S "$t/cs_prog" | grep -q debug_aranges; then
        fail "clang wrote .debug_aranges: this case no longer tests their absence"
    fi
else
    "$cc" -g -O1 -fno-inline -finstrument-functions -o "$t/cs_prog" "$src" || fail "cc failed"
fi

# run [VAR=value...]: cs_prog under the runtime; its one log in $log.
run() {
    rm -f "$t"/logs/*
    if [ "$case" = mpi ]; then
        env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 IOLENS_LOGPATH="$t/logs" \
            "$@" mpirun --oversubscribe -np 2 -x LD_PRELOAD="$preload" -x IOLENS_LOGPATH \
            -x IOLENS_CALLSITES "$t/cs_prog" "$t/d" > "$t/out" 2> "$t/err" ||
            fail "mpirun cs_prog: exit status $?"
    else
        env -u IOLENS_CONFIG_PATH -u IOLENS_MOD_ENABLE -u IOLENS_CALLSITES \
            IOLENS_LOGPATH="$t/logs" "$@" LD_PRELOAD="$preload" "$t/cs_prog" "$t/d" \
            > "$t/out" 2> "$t/err" || fail "cs_prog: exit status $?"
    fi
    grep -q "cs_prog done" "$t/out" || fail "cs_prog did not finish"
    set -- "$t"/logs/*.darshan
    [ $# -eq 1 ] && [ -f "$1" ] || fail "expected one log"
    log=$1
}

line() { grep -n "SITE-$1 " "$src" | cut -d: -f1; }

# check_sites JSON FACTOR: the sites are exactly cs_prog's, calls and bytes
# multiplied by FACTOR (ranks). Under a sanitizer its interceptors stand
# between the program and the runtime: the line is the first frame in cs_prog.
# Returns 3 when only the I/O intensity check failed (a timing check).
check_sites() {
    rc=0
    python3 - "$1" "$2" "$src" "$(line small)" "$(line big)" "$(line read)" "$(line fputs)" \
        "$(line fwrite)" "$(line puts)" "$(line open)" "$(line fsync)" "$(line close)" \
        "$(line lseek)" "$(line fopen)" "$(line fflush)" "$(line fseek)" "$(line fclose)" \
        "$(line stat)" "$(line rename)" "$(line mpiopen)" "$(line mpiwrite)" "$(line mpisync)" \
        "$(line mpiclose)" <<'PY' || rc=$?
import json, os, re, sys
r = json.load(open(sys.argv[1]))
k = int(sys.argv[2]); src = sys.argv[3]
small, big, rd, fputs, fwrite, puts, opn, fsy, cls = map(int, sys.argv[4:13])
lseek, fopen, fflush, fseek, fclose, stat, rename = map(int, sys.argv[13:20])
mopen, mwrite, msync, mclose = map(int, sys.argv[20:24])
want = {("main", opn, "POSIX", "open"): (k, 0),
        ("main", lseek, "POSIX", "seek"): (k, 0),
        ("main", fsy, "POSIX", "flush"): (k, 0),
        ("main", cls, "POSIX", "close"): (k, 0),
        ("main", fopen, "STDIO", "open"): (k, 0),
        ("main", fflush, "STDIO", "flush"): (k, 0),
        ("main", fseek, "STDIO", "seek"): (k, 0),
        ("main", fclose, "STDIO", "close"): (k, 0),
        ("main", stat, "POSIX", "meta"): (k, 0),
        ("main", rename, "POSIX", "meta"): (k, 0),
        ("write_small", small, "POSIX", "write"): (10 * k, 1000 * k),
        ("write_big", big, "POSIX", "write"): (3 * k, 12288 * k),
        ("read_back", rd, "POSIX", "read"): (5 * k, 320 * k),
        ("log_lines", fputs, "STDIO", "write"): (4 * k, 24 * k),
        ("log_lines", fwrite, "STDIO", "write"): (2 * k, 2000 * k)}
# MPI: the log is written in MPI_Finalize, before main's puts and its exit
names = ("write_small", "write_big", "read_back", "log_lines") + (("main",) if k == 1 else ())
if k == 1:
    want[("main", puts, "STDIO", "write")] = (1, 13)
else:
    want.update({("main", mopen, "MPI-IO", "open"): (k, 0),
                 ("main", mwrite, "MPI-IO", "write"): (k, 100 * k),
                 ("main", msync, "MPI-IO", "flush"): (k, 0),
                 ("main", mclose, "MPI-IO", "close"): (k, 0)})
got = {}
for s in r["sites"]:
    f = next((f for f in s["frames"] if f["object"].endswith("/cs_prog")), None)
    if f is None:
        continue  # the C library's own I/O (stdout) and the like
    inner = os.path.basename(s["frames"][0]["object"])
    if inner != "cs_prog" and not re.match(r"lib(asan|ubsan)", inner):
        continue  # a library's own I/O: MPI-IO's POSIX calls, Open MPI's fopen in Finalize
    if os.path.basename(f["file"]) != "cs_prog.c":
        print("site outside cs_prog.c:", s); sys.exit(1)
    key = (f["function"], f["line"], s["module"], s["op"])
    got[key] = (got.get(key, (0, 0))[0] + s["calls"], got.get(key, (0, 0))[1] + s["bytes"])
    if os.environ.get("IOLENS_TEST_SANITIZE", "OFF") != "ON" and f is not s["frames"][0]:
        print("innermost frame is not the program's line:", s); sys.exit(1)
    if (s["function"], s["line"]) != (f["function"], f["line"]) and f is s["frames"][0]:
        print("site's function and line are not its innermost frame's:", s); sys.exit(1)
if got != want:
    print("want", sorted(want.items())); print("got ", sorted(got.items())); sys.exit(1)
fn = {f["function"]: f for f in r["functions"]}
for name in names:
    if name not in fn:
        print("function not timed:", name); sys.exit(1)
    f = fn[name]
    if not (f["time"] > 0 and f["time"] <= f["inclusive"] * 1.000001 and f["calls"] == k):
        print("times inconsistent:", f); sys.exit(1)
# The runtime's own work (its records, a module's first call) is not the
# functions' computation: functions that only make I/O calls are mostly I/O
# (about 0.8 here; 0.06 and 0.3 when that work counted as theirs). A
# sanitizer's interceptors stand outside the runtime and count as the
# function's own.
io = {}
for s in r["sites"]:
    io[s["function"]] = io.get(s["function"], 0) + s["time"]
if os.environ.get("IOLENS_TEST_SANITIZE", "OFF") != "ON":
    for name in ("write_small", "log_lines"):
        if io.get(name, 0) < 0.4 * fn[name]["time"]:
            print("I/O intensity of %s below 0.4:" % name, io.get(name), fn[name]); sys.exit(3)
others = sum(fn[n]["time"] for n in names if n != "main")
if k == 1 and fn["main"]["inclusive"] < others + fn["main"]["time"] * 0.999:
    print("main's inclusive time below its callees' own times:", fn); sys.exit(1)
PY
    [ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "sites differ (above)"
    return "$rc"
}

# measured_sites FACTOR RUN_ARGS...: run cs_prog, read its sites and check
# them. The I/O intensity check is a timing one: log_lines and write_small
# make a few calls of well under a microsecond, and a run preempted inside
# them (a loaded CI machine) measures them near 0. That check alone gets
# one more run.
measured_sites() {
    factor=$1
    shift
    for try in 1 2; do
        rm -f "$t"/logs/*
        run "$@"
        "$iolens" callsites --json "$log" > "$t/cs.json" 2> "$t/err" || fail "iolens callsites failed"
        if check_sites "$t/cs.json" "$factor"; then
            return 0
        fi
        echo "(run $try: the I/O intensity check failed, above)"
    done
    fail "I/O intensity below 0.4 in two runs (above)"
}

case $case in
clang)
    measured_sites 1 IOLENS_CALLSITES=1
    ;;
exact)
    measured_sites 1 IOLENS_CALLSITES=1
    "$iolens" callsites "$log" > "$t/cs.txt" || fail "iolens callsites (text) failed"
    grep -q "write_big .*cs_prog.c:$(line big)" "$t/cs.txt" || fail "text output lacks write_big"
    "$iolens" insights "$log" > "$t/ins.txt" || fail "iolens insights failed"
    grep -q "^I/O by line (top 5 of 16 call sites" "$t/ins.txt" || fail "insights lacks the lines"
    # the site with the most time first (under a sanitizer, its interceptor
    # is the innermost frame)
    top=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["sites"][0]
print("%s .*%s:%d" % (s["function"], s["file"].rsplit("/", 1)[-1], s["line"]))' "$t/cs.json")
    [ "${IOLENS_TEST_SANITIZE:-OFF}" = ON ] || grep -A1 "^I/O by line" "$t/ins.txt" |
        grep -q "$top" || fail "insights does not start with the top line ($top)"
    ;;
off)
    run
    "$iolens" parse "$log" | grep -q '^# CALLSITES module' && fail "CALLSITES recorded while off"
    if "$iolens" callsites "$log" > "$t/out2" 2> "$t/err2"; then fail "callsites succeeded"; fi
    [ "$(wc -l < "$t/err2")" -eq 1 ] && grep -q "no call sites" "$t/err2" ||
        fail "not one line: $(cat "$t/err2")"
    ;;
full)
    run IOLENS_CALLSITES=1 IOLENS_CALLSITES_MAX=2
    "$iolens" callsites --json "$log" > "$t/cs.json" 2> "$t/err2" || fail "callsites failed"
    python3 - "$t/cs.json" <<'PY' || fail "full table not reported (above)"
import json, sys
r = json.load(open(sys.argv[1]))
calls = sum(s["calls"] for s in r["sites"])
if len(r["sites"]) != 2 or not r["partial"] or r["lost_calls"] <= 0:
    print(r); sys.exit(1)
if calls + r["lost_calls"] < 24:  # cs_prog's 24 calls, and stdout's
    print("calls lost:", calls, r["lost_calls"]); sys.exit(1)
PY
    grep -q "CALLSITES: .* I/O calls at no site" "$t/err" || fail "no line on stderr"
    ;;
darshan)
    parser=/work/ref/inst-full/bin/darshan-parser
    [ -x "$parser" ] || { echo "skipped: no Darshan 3.5 darshan-parser at $parser"; exit 77; }
    run IOLENS_CALLSITES=1
    "$parser" "$log" > "$t/dp" 2>&1 || fail "darshan-parser failed: $(tail -3 "$t/dp")"
    grep -q "module id 62 is unknown" "$t/dp" || fail "no warning for module 62"
    grep -q "^POSIX.*POSIX_WRITES	13	" "$t/dp" || fail "POSIX records not printed"
    ;;
stacks)
    for opt in -O0 -O2; do
        "$cc" $opt -g -fno-inline -fno-optimize-sibling-calls -pthread -o "$t/cs_stacks" \
            "$here/cs_stacks.c" || fail "cc $opt cs_stacks failed"
        for depth in 8 1; do
            rm -f "$t"/logs/*
            env -u IOLENS_CONFIG_PATH -u IOLENS_MOD_ENABLE IOLENS_LOGPATH="$t/logs" \
                IOLENS_CALLSITES=1 IOLENS_CALLSITES_DEPTH=$depth LD_PRELOAD="$preload" \
                "$t/cs_stacks" "$t/d" > "$t/out" 2> "$t/err" || fail "cs_stacks $opt: exit $?"
            "$iolens" callsites --json "$t"/logs/*.darshan > "$t/cs.json" 2> "$t/err" ||
                fail "iolens callsites failed ($opt, depth $depth)"
            python3 - "$t/cs.json" "$t/out" "$depth" "$(grep -n "SITE-leaf \*/" "$here/cs_stacks.c" |
                cut -d: -f1)" "$(grep -n "SITE-handler \*/" "$here/cs_stacks.c" | cut -d: -f1)" <<'PY' ||
import json, os, sys
r = json.load(open(sys.argv[1]))
_, _, leaf_n, handler_n = open(sys.argv[2]).read().split()
depth, leaf_line, handler_line = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
sanitized = os.environ.get("IOLENS_TEST_SANITIZE", "OFF") == "ON"
edges = {("vla_frame", "leaf"), ("alloca_frame", "vla_frame"), ("recurse", "alloca_frame"),
         ("recurse", "recurse"), ("realigned", "recurse"), ("thread_main", "realigned"),
         ("main", "recurse"), ("main", "alloca_frame")}
calls = {"leaf": 0, "handler": 0}
unseen = 0  # sanitized, depth 1: the interceptor is the only frame
for s in r["sites"]:
    if s["module"] != "POSIX" or s["op"] not in ("read", "write"):
        continue  # the final printf, the files' opens and closes
    fr = s["frames"]
    mine = [f["object"].endswith("/cs_stacks") for f in fr]
    if sanitized:  # the sanitizer's interceptor first, then the program
        while fr and not mine[0]:
            fr, mine = fr[1:], mine[1:]
    if not fr:
        unseen += s["calls"]
        continue
    top = fr[0]
    if not mine[0] or (top["function"], top["line"]) not in (("leaf", leaf_line),
                                                            ("handler", handler_line)):
        print("innermost frame not a SITE line:", s); sys.exit(1)
    calls[top["function"]] += s["calls"]
    if sanitized:
        continue
    if len(fr) != depth and mine[-1] and fr[-1]["function"] != "_start":
        print("stack cut short:", s); sys.exit(1)
    for inner, outer, both in zip(fr, fr[1:], (a and b for a, b in zip(mine, mine[1:]))):
        if both and (outer["function"], inner["function"]) not in edges:
            print("not a call of the program:", outer["function"], "->", inner["function"], s)
            sys.exit(1)
    if top["function"] == "handler" and depth == 8:
        if mine[1] or "main" not in [f["function"] for f, m in zip(fr, mine) if m]:
            print("handler's site not through the signal frame to main:", s); sys.exit(1)
if unseen and not (sanitized and depth == 1):
    print("sites outside the program:", unseen); sys.exit(1)
if unseen and sum(calls.values()) + unseen != int(leaf_n) + int(handler_n):
    print("calls", calls, "and", unseen, "at the interceptor; want", leaf_n, handler_n); sys.exit(1)
if not unseen and calls != {"leaf": int(leaf_n), "handler": int(handler_n)}:
    print("calls", calls, "want", leaf_n, handler_n); sys.exit(1)
# backtrace() only through the signal frame (at depth 1 the wrapper's return
# address is the site); under a sanitizer the interceptor has its own frames
if not sanitized and r["slow_walks"] != (int(handler_n) if depth > 1 else 0):
    print("stacks walked with backtrace():", r["slow_walks"]); sys.exit(1)
PY
                fail "sites wrong ($opt, depth $depth; above)"
        done
    done
    ;;
mpi)
    measured_sites 2 IOLENS_CALLSITES=1
    ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
