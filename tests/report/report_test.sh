#!/bin/sh
# iolens report in a real browser: for each log given (relative to LOGS),
# make its page, open it in headless Chromium, and fail on any console
# message (the page logs nothing when all is well: every script error and
# uncaught exception reaches the console), on a page whose scripts did not
# finish (body data-status), or on content that differs from `iolens parse`
# and `iolens insights` (check_dom.py). Keeps OUT/NAME.html, .dom.html,
# .console.txt and a screenshot OUT/NAME.png for each log.
#
# With --threads, a DXT log with thread ids is made first with the runtime
# (WRITERS: 2 threads, 50 traced writes each) and checked as well: one lane
# per thread; and a log with call sites (tests/runtime/cs_prog.c, built here
# with IOLENS_TEST_CC), whose "I/O by line" table must list the sites of
# `iolens callsites --json` in its order (the other pages: no such table). Every page is opened at #zoom=0,1 (a zoom range set on load)
# and its timeline checked against `iolens dxt` (check_dom.py).
#
# A LOG written LOG@OPT,OPT... is reported with those options (e.g. a small
# --dxt-segments, to check the sampling rule on a small log).
#
# usage: report_test.sh IOLENS LOGS OUT [--threads WRITERS LIBIOLENS] LOG...
set -u
iolens=$1 logs=$2 out=$3
shift 3
writers= runtime=
if [ "${1:-}" = --threads ]; then
  writers=$2 runtime=$3
  shift 3
fi
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "FAIL: chromium not found: the report's browser test needs Debian's chromium (scripts/install-deps)"
  exit 1
fi
command -v python3 > /dev/null || { echo "FAIL: python3 not found (scripts/install-deps)"; exit 1; }
mkdir -p "$out"
fails=0
fail() { echo "FAIL: $name: $*"; fails=$((fails + 1)); }

# browser FLAG...: run headless Chromium on its own profile, stderr to $console.
. "$here/../lib/chromium.sh"
browser() {
  chromium_run "$browser" "$out/profile" "$console" "$@"
}

# The verb: one-line errors, exit statuses, the default page name (docs/report.md).
name=cli
one_line() { # STATUS WHAT COMMAND...
  want=$1 what=$2
  shift 2
  "$@" > "$out/cli.out" 2> "$out/cli.err"
  rc=$?
  [ "$rc" = "$want" ] || fail "$what: exit $rc, expected $want"
  [ "$(wc -l < "$out/cli.err")" = 1 ] && grep -q '^iolens report: ' "$out/cli.err" ||
    fail "$what: stderr is not one 'iolens report:' line: $(cat "$out/cli.err")"
}
one_line 2 "no log" "$iolens" report
one_line 2 "two logs" "$iolens" report "$logs/$1" "$logs/$1"
one_line 2 "unknown option" "$iolens" report --nope "$logs/$1"
one_line 2 "bad --dxt-segments" "$iolens" report --dxt-segments 0 "$logs/$1"
one_line 1 "missing log" "$iolens" report "$out/none.darshan"
one_line 1 "unwritable page" "$iolens" report -o "$out/no/such/dir/page.html" "$logs/$1"
mkdir -p "$out/cwd"
(cd "$out/cwd" && "$iolens" report "$(realpath "$logs/$1")") > "$out/cli.out" 2>&1 ||
  fail "default output: $(cat "$out/cli.out")"
[ -s "$out/cwd/$(basename "$1" .darshan).html" ] && [ ! -s "$out/cli.out" ] ||
  fail "default output: no $(basename "$1" .darshan).html in the current directory, or output"
[ -z "$(ls "$out/cwd" | grep -v '\.html$')" ] || fail "temporary files left: $(ls "$out/cwd")"
"$iolens" report -o - "$logs/$1" | cmp -s - "$out/cwd/$(basename "$1" .darshan).html" ||
  fail "-o - differs from the page written to a file"
[ "$fails" -eq 0 ] && echo "cli: ok: usage errors, default name, -o -"

# A log with thread ids: the runtime traces dxt_writers' two threads.
if [ -n "$writers" ]; then
  . "$here/../lib/preload.sh"
  sanitizer_preload "$runtime" "detect_leaks=0:$asan_signals"
  rm -rf "$out/threads" && mkdir -p "$out/threads"
  (cd "$out/threads" && env -u IOLENS_CONFIG_PATH DXT_ENABLE_IO_TRACE=1 IOLENS_MMAP_DIR="$(pwd)" \
      IOLENS_LOGFILE="$(pwd)/threads.darshan" LD_PRELOAD="$preload" "$writers" data 2 50) ||
    { name=threads; fail "dxt_writers under the runtime failed"; }
  rm -rf "$out/callsites" && mkdir -p "$out/callsites/d"
  "${IOLENS_TEST_CC:-cc}" -g -O1 -fno-inline -o "$out/callsites/cs_prog" "$here/../runtime/cs_prog.c" ||
    { name=callsites; fail "cc cs_prog.c failed"; }
  (cd "$out/callsites" && env -u IOLENS_CONFIG_PATH IOLENS_CALLSITES=1 \
      IOLENS_LOGFILE="$(pwd)/callsites.darshan" LD_PRELOAD="$preload" ./cs_prog d > /dev/null) ||
    { name=callsites; fail "cs_prog under the runtime failed"; }
fi

for arg in "$@" ${writers:+threads callsites}; do
  rel=${arg%%@*} opts= name=$(basename "${arg%%@*}" .darshan)
  if [ "$arg" != "$rel" ]; then # LOG@OPTION,OPTION: report options, a page of its own
    opts=$(echo "${arg#*@}" | tr ',' ' ') name=$name-sampled
  fi
  log=$logs/$rel
  [ "$rel" = threads ] && log=$out/threads/threads.darshan
  [ "$rel" = callsites ] && log=$out/callsites/callsites.darshan
  page=$out/$name.html console=$out/$name.console.txt
  : > "$console"
  [ -f "$log" ] || { fail "$log missing"; continue; }
  # shellcheck disable=SC2086 # $opts: words
  if ! "$iolens" report $opts -o "$page" "$log" > "$out/$name.stdout" 2>&1; then
    fail "iolens report failed: $(cat "$out/$name.stdout")"; continue
  fi
  [ -s "$out/$name.stdout" ] && fail "iolens report printed: $(head -c 300 "$out/$name.stdout")"
  browser --dump-dom "file://$(realpath "$page")#zoom=0,1" > "$out/$name.dom.html" ||
    fail "Chromium failed (status $?) on the page"
  browser --screenshot="$(realpath "$out")/$name.png" --window-size=1280,9000 \
    --hide-scrollbars "file://$(realpath "$page")" > /dev/null ||
    fail "Chromium failed (status $?) on the screenshot"
  [ -s "$out/$name.png" ] || fail "no screenshot"
  if grep -q ':CONSOLE' "$console"; then
    fail "console messages:"; grep ':CONSOLE' "$console" | head -n 5
  fi
  "$iolens" parse --base --perf --show-incomplete "$log" > "$out/$name.parse.txt" 2>&1 || fail "iolens parse failed"
  "$iolens" insights --json "$log" > "$out/$name.insights.json" 2>&1 || fail "iolens insights failed"
  "$iolens" dxt --show-incomplete "$log" > "$out/$name.dxt.txt" 2>&1 || fail "iolens dxt failed"
  extra=
  [ "$rel" = threads ] && extra="--threads 2"
  if [ "$rel" = callsites ]; then
    "$iolens" callsites --json "$log" > "$out/$name.cs.json" 2>&1 || fail "iolens callsites failed"
    extra="--callsites $out/$name.cs.json"
  fi
  # shellcheck disable=SC2086 # $extra: words
  if res=$(python3 "$here/check_dom.py" "$out/$name.dom.html" "$out/$name.parse.txt" \
      "$out/$name.insights.json" "$out/$name.dxt.txt" $extra); then
    echo "$name: $res"
  else
    echo "$res" | sed "s|^FAIL: |FAIL: $name: |"
    fails=$((fails + 1))
  fi
done
rm -rf "$out/profile"
[ "$fails" -eq 0 ] || { echo "$fails failure(s); pages, DOMs, console output and screenshots in $out"; exit 1; }
echo "all pages rendered without console messages; screenshots in $out"
