#!/bin/sh
# What a new user meets first in `iolens parse`, `iolens dxt` and `iolens
# recover`: several logs printed in turn (each after "# ==> LOG <=="), a log
# that fails not stopping the others, and the highest status; files that are
# not Darshan logs, or of a version iolens does not read, named as such; bad
# options and missing arguments as one line `iolens VERB: ...` with status 2.
#
#   cli_test.sh IOLENS WRITE_LOG
#
# WRITE_LOG is examples/write_log, which writes a small log.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 IOLENS WRITE_LOG" >&2; exit 2; }
iolens=$1 write_log=$2
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-cli.XXXXXX")
trap 'rm -rf "$t"' EXIT
cd "$t"

fail() { echo "FAIL: $*"; exit 1; }

# run NAME WANT_STATUS ARGS...: `iolens ARGS...`, output in NAME.out and
# NAME.err; the exit status must be WANT_STATUS.
run() {
    name=$1 want_status=$2
    shift 2
    status=0
    "$iolens" "$@" > "$name.out" 2> "$name.err" || status=$?
    [ "$status" = "$want_status" ] || {
        cat "$name.out" "$name.err"
        fail "$name: iolens $*: exit status $status, expected $want_status"
    }
}

# errors NAME LINE...: NAME's stderr is exactly these lines.
errors() {
    name=$1
    shift
    printf '%s\n' "$@" | cmp -s - "$name.err" ||
        { echo "stderr:"; cat "$name.err"; echo "expected:"; printf '%s\n' "$@"; fail "$name"; }
}

# quiet NAME: NAME printed nothing on stderr.
quiet() { [ ! -s "$1.err" ] || { cat "$1.err"; fail "$1: unexpected stderr"; }; }

"$write_log" a.darshan > /dev/null || fail "write_log a.darshan"
cp a.darshan b.darshan

# Files that are not Darshan logs: one line each, status 1, nothing on stdout.
printf 'hello, this is a text file\nwith two lines\n' > text.txt
: > empty.darshan
head -c 4096 /dev/urandom > random.bin
for f in text.txt random.bin; do
    run "notlog-$f" 1 parse "$f"
    errors "notlog-$f" "iolens parse: $f: not a Darshan log"
    [ ! -s "notlog-$f.out" ] || fail "notlog-$f: output on stdout"
    run "notlog-dxt-$f" 1 dxt "$f"
    errors "notlog-dxt-$f" "iolens dxt: $f: not a Darshan log"
done
run empty 1 parse empty.darshan
errors empty "iolens parse: empty.darshan: not a Darshan log (empty file)"
run missing 1 parse no-such.darshan
errors missing "iolens parse: no-such.darshan: No such file or directory"

# A Darshan log (its magic number) of a version iolens does not read; a
# known version whose magic number is damaged.
{ printf '3.99\0\0\0\0'; tail -c +9 a.darshan; } > v399.darshan
run version 1 parse v399.darshan
errors version \
    "iolens parse: v399.darshan: Darshan log format version '3.99' is not supported (3.00 to 3.41 are)"
{ head -c 8 a.darshan; printf '\0\0\0\0\0\0\0\0'; tail -c +17 a.darshan; } > magic.darshan
run magic 1 parse magic.darshan
errors magic "iolens parse: magic.darshan: not a Darshan log (bad magic number)"

# Several logs: each one's own output in turn, after its "# ==> LOG <==" line.
for verb in parse dxt; do
    run "$verb-a" 0 "$verb" a.darshan
    quiet "$verb-a"
    run "$verb-b" 0 "$verb" b.darshan
    run "$verb-ab" 0 "$verb" a.darshan b.darshan
    quiet "$verb-ab"
    { echo "# ==> a.darshan <=="; cat "$verb-a.out"; echo
      echo "# ==> b.darshan <=="; cat "$verb-b.out"; } | cmp -s - "$verb-ab.out" ||
        fail "$verb a.darshan b.darshan: not each log's output in turn"
    # One that fails in the middle: its error line, the others still printed.
    run "$verb-mixed" 1 "$verb" a.darshan text.txt b.darshan
    errors "$verb-mixed" "iolens $verb: text.txt: not a Darshan log"
    { echo "# ==> a.darshan <=="; cat "$verb-a.out"; echo
      echo "# ==> text.txt <=="; echo
      echo "# ==> b.darshan <=="; cat "$verb-b.out"; } | cmp -s - "$verb-mixed.out" ||
        fail "$verb a.darshan text.txt b.darshan: the logs around the bad one not printed"
done
[ "$(grep -c '^# darshan log version: 3.41$' parse-ab.out)" = 2 ] || fail "parse-ab: two headers"

# Options apply to every log; the highest status wins: a partial log (every
# module flagged; 255 without --show-incomplete) beside an unreadable file.
run total 0 parse --total a.darshan b.darshan
[ "$(grep -c '^total_POSIX_OPENS: ' total.out)" = 2 ] || fail "parse --total: not for each log"
{ head -c 24 a.darshan; printf '\377'; tail -c +26 a.darshan; } > partial.darshan
run partial 255 parse text.txt partial.darshan a.darshan
[ "$(wc -l < partial.err)" = 2 ] && grep -q '^iolens parse: partial.darshan: ' partial.err ||
    { cat partial.err; fail "partial: one error line for each failed log"; }
run partial-shown 0 parse --show-incomplete partial.darshan a.darshan

# Usage errors: one line naming the verb, status 2, nothing on stdout.
run noarg-parse 2 parse
errors noarg-parse "iolens parse: no log given (try 'iolens parse --help')"
run noarg-dxt 2 dxt
errors noarg-dxt "iolens dxt: no log given (try 'iolens dxt --help')"
run noarg-recover 2 recover
errors noarg-recover "iolens recover: no record file given (try 'iolens recover --help')"
run badopt-parse 2 parse --no-such-option a.darshan
errors badopt-parse "iolens parse: --no-such-option: unknown option (try 'iolens parse --help')"
run badshort-parse 2 parse -x a.darshan
errors badshort-parse "iolens parse: -x: unknown option (try 'iolens parse --help')"
run badarg-parse 2 parse --total=yes a.darshan
errors badarg-parse "iolens parse: --total=yes: takes no argument (try 'iolens parse --help')"
run badopt-dxt 2 dxt --base a.darshan
errors badopt-dxt "iolens dxt: --base: unknown option (try 'iolens dxt --help')"
run needarg-recover 2 recover x.iolmap -o
errors needarg-recover "iolens recover: -o: needs an argument (try 'iolens recover --help')"
run needlong-recover 2 recover x.iolmap --output
errors needlong-recover "iolens recover: --output: needs an argument (try 'iolens recover --help')"
run notdir-recover 2 recover -o one.darshan x.iolmap y.iolmap
errors notdir-recover \
    "iolens recover: -o must name a directory when recovering several files (try 'iolens recover --help')"
run notmap-recover 1 recover -o out.darshan text.txt
errors notmap-recover "iolens recover: text.txt: not an iolens record file"
run both-link 2 link-flags --static --dynamic
errors both-link "iolens link-flags: --static and --dynamic: choose one (try 'iolens link-flags --help')"
run arg-link 2 link-flags prog.o
errors arg-link "iolens link-flags: prog.o: unexpected argument (try 'iolens link-flags --help')"
run verb 2 no-such-verb
errors verb "iolens: no-such-verb: unknown verb (try 'iolens --help')"
for f in noarg-parse badopt-parse badopt-dxt needarg-recover both-link arg-link verb; do
    [ ! -s "$f.out" ] || fail "$f: output on stdout"
done

# --help: the usage on stdout, status 0.
for verb in parse dxt recover run link-flags; do
    run "help-$verb" 0 "$verb" --help
    quiet "help-$verb"
    grep -q "^usage: iolens $verb " "help-$verb.out" || fail "$verb --help: no usage line"
done
echo "ok: iolens parse, dxt and recover on the command line"
