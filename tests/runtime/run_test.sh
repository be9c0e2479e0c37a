#!/bin/sh
# `iolens run`: the program runs under the runtime and leaves a log that
# parses; its exit status and death by signal pass through; options after the
# program are the program's; LD_PRELOAD keeps the user's entries and holds
# the runtime once; the runtime is found beside an installed iolens too (lib,
# or another libdir through the log library's directory); errors are one line
# with 125 (iolens run itself), 126 (cannot run) or 127 (not found).
#
#   run_test.sh IOLENS LIB RUN_PROG RUN_EXTRA CMAKE BUILD_DIR
#
# LIB is the libiolens.so iolens should find, RUN_EXTRA a library preloaded
# by the user, CMAKE and BUILD_DIR install the build into a scratch prefix. In
# an IOLENS_SANITIZE build (IOLENS_TEST_SANITIZE=ON) the sanitizer runtime,
# found with the compiler (IOLENS_TEST_CC), is in the user's LD_PRELOAD too,
# and iolens run must keep it first; without it the test is skipped (exit 77).
set -eu
[ $# -eq 6 ] || { echo "usage: $0 IOLENS LIB RUN_PROG RUN_EXTRA CMAKE BUILD_DIR" >&2; exit 2; }
iolens=$1 prog=$3 cmake=$5 build=$6
lib=$(readlink -f "$2")
extra=$(readlink -f "$4")
# Only $asan is used: iolens run puts the runtime in LD_PRELOAD itself.
. "$(dirname "$0")/../lib/preload.sh"
sanitizer_preload "$lib" "$asan_signals"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-run.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/d" "$t/logs" "$t/alt"
unset IOLENS_LIB IOLENS_LOGFILE IOLENS_LOGPATH DARSHAN_LOGFILE DARSHAN_LOGPATH
# The user's LD_PRELOAD (space-separated, as ld.so allows), and what the
# program must see: sanitizer first, then the runtime, then the user's entry.
user="${asan:+$asan }$extra"
want() { echo "LD_PRELOAD=${asan:+$asan:}$1:$extra"; echo "extra=1"; }

fail() { echo "FAIL: $*"; exit 1; }

# run NAME WANT_STATUS CMD...: run CMD in $t/d with the user's LD_PRELOAD,
# output in $t/NAME.out and $t/NAME.err; the exit status must be WANT_STATUS.
run() {
    name=$1 want_status=$2
    shift 2
    status=0
    (cd "$t/d" && exec env LD_PRELOAD="$user" "$@" > "$t/$name.out" 2> "$t/$name.err") ||
        status=$?
    [ "$status" = "$want_status" ] || {
        cat "$t/$name.out" "$t/$name.err"
        fail "$name: exit status $status, expected $want_status"
    }
}

# parses LOG FILE: LOG parses, and records the 100 bytes run_prog wrote to FILE.
parses() {
    "$iolens" parse "$1" > "$t/parse.out" || fail "$1 does not parse"
    awk -v f="$2" '$4 == "POSIX_BYTES_WRITTEN" && $5 == 100 && $6 == f { ok = 1 }
                   END { exit !ok }' "$t/parse.out" || fail "$1: no 100 bytes written to $2"
}

# one_error NAME PREFIX: NAME's stderr is one line starting with PREFIX.
one_error() {
    [ "$(wc -l < "$t/$1.err")" = 1 ] && grep -q "^$2" "$t/$1.err" ||
        { cat "$t/$1.err"; fail "$1: not one line '$2...' on stderr"; }
}

# The program's status and its own options; a log in -d DIR that parses.
run status 3 "$iolens" run -d "$t/logs" -- "$prog" "$t/d/a.dat" 3 -h --lib x
printf '%s\n' "$(want "$lib")" -h --lib x | cmp -s - "$t/status.out" ||
    { cat "$t/status.out"; fail "status: wrong LD_PRELOAD or arguments"; }
set -- "$t"/logs/*.darshan
[ $# = 1 ] && [ -f "$1" ] || fail "status: $# logs in $t/logs, expected 1"
parses "$1" "$t/d/a.dat"

# Death by signal (the runtime writes the log first); -o with a relative path.
run signal 143 "$iolens" run -o sig.darshan "$prog" "$t/d/b.dat" -15
parses "$t/d/sig.darshan" "$t/d/b.dat"

# The runtime already in LD_PRELOAD (another spelling of its path): once.
user="$user:$(dirname "$lib")/../$(basename "$(dirname "$lib")")/libiolens.so"
run twice 0 "$iolens" run -o "$t/twice.darshan" "$prog" "$t/d/c.dat" 0
want "$lib" | cmp -s - "$t/twice.out" || { cat "$t/twice.out"; fail "twice: wrong LD_PRELOAD"; }
parses "$t/twice.darshan" "$t/d/c.dat"
user="${asan:+$asan }$extra"

# IOLENS_LIB, and --lib over it.
cp "$lib" "$t/alt/libiolens.so"
run env 0 env IOLENS_LIB="$t/alt/libiolens.so" "$iolens" run "$prog" "$t/d/e.dat" 0
want "$t/alt/libiolens.so" | cmp -s - "$t/env.out" || { cat "$t/env.out"; fail "IOLENS_LIB"; }
run lib 0 env IOLENS_LIB=/nonexistent "$iolens" run --lib "$t/alt/libiolens.so" "$prog" \
    "$t/d/f.dat" 0
want "$t/alt/libiolens.so" | cmp -s - "$t/lib.out" || { cat "$t/lib.out"; fail "--lib"; }

# Errors: one line, and the shells' statuses.
run notfound 127 "$iolens" run no-such-program-iolens
one_error notfound "iolens run: no-such-program-iolens: "
run nofile 127 "$iolens" run "$t/d/no-such-file"
one_error nofile "iolens run: $t/d/no-such-file: "
run noexec 126 "$iolens" run "$t/d/a.dat"
one_error noexec "iolens run: $t/d/a.dat: "
run badlib 125 "$iolens" run --lib "$t/nope.so" "$prog" "$t/d/g.dat" 0
one_error badlib "iolens run: $t/nope.so: "
run noprog 125 "$iolens" run -d "$t/logs"
one_error noprog "iolens run: "
run badopt 125 "$iolens" run --no-such-option "$prog"
one_error badopt "iolens run: "

# Installed: the runtime beside PREFIX/bin/iolens, in CMake's libdir.
"$cmake" --install "$build" --prefix "$t/inst" > /dev/null
libdir=$(cd "$t/inst" && ls -d lib*/libiolens.so lib/*/libiolens.so 2> /dev/null | head -n 1)
[ -n "$libdir" ] || fail "install: no libiolens.so under $t/inst"
libdir=${libdir%/libiolens.so}
run installed 0 "$t/inst/bin/iolens" run "$prog" "$t/d/h.dat" 0
want "$t/inst/$libdir/libiolens.so" | cmp -s - "$t/installed.out" ||
    { cat "$t/installed.out"; fail "installed in $libdir"; }
# A libdir other than lib or lib64 (Debian's lib/x86_64-linux-gnu): found
# where the log library was loaded from (here through LD_LIBRARY_PATH, which
# an install's RUNPATH stands for).
mv "$t/inst/$libdir" "$t/multi"
mkdir -p "$t/inst/lib"
mv "$t/multi" "$t/inst/lib/x86_64-linux-gnu"
run multiarch 0 env LD_LIBRARY_PATH="$t/inst/lib/x86_64-linux-gnu" "$t/inst/bin/iolens" run \
    "$prog" "$t/d/i.dat" 0
want "$t/inst/lib/x86_64-linux-gnu/libiolens.so" | cmp -s - "$t/multiarch.out" ||
    { cat "$t/multiarch.out"; fail "installed in lib/x86_64-linux-gnu"; }
echo "ok: iolens run"
