#!/bin/sh
# `iolens run` makes the whole process tree one job (docs/runtime.md, "iolens
# run"): one job log, each process's records with its own rank, helpers that
# did no I/O left out, killed processes recovered into it, signals forwarded,
# statically linked programs warned about.
#
#   run_job_test.sh IOLENS RUN_PROG MODE
#
# MODE  shim    a shell script (as pyenv's python3 is) that runs helper
#               commands, then execs RUN_PROG: one log in -d DIR, nprocs 1,
#               only RUN_PROG's file among its records; no stray log in the
#               current directory, no run directory left behind
#       bashc   `bash -c 'RUN_PROG FILE 0; echo done'` with -o FILE: that log
#               holds RUN_PROG's records
#       wrapper `env A=1 RUN_PROG FILE 0`: env does no I/O and execs RUN_PROG;
#               the job log's command line is still env's, the job's first
#               process (an image without records writes a log before its
#               exec under iolens run only)
#       killed  a tree in which one child SIGKILLs itself after its write:
#               the job log (nprocs 2) holds its records, is not partial and
#               says iolens_killed=1, iolens_killed_ranks=0
#       signal  SIGTERM and SIGUSR1 sent to iolens run reach the program, and
#               iolens run dies of the same signal; without -o or -d, each
#               job log is in the current directory
#       static  a statically linked program (IOLENS_TEST_CC -static): one
#               warning line, and it still runs with its exit status
#
# In an IOLENS_SANITIZE build the sanitizer runtime is put in LD_PRELOAD
# (iolens run keeps it first), with leak detection off; without it the test
# is skipped (exit 77).
set -eu
[ $# -eq 3 ] || { echo "usage: $0 IOLENS RUN_PROG MODE" >&2; exit 2; }
iolens=$1 prog=$2 mode=$3
. "$(dirname "$0")/../lib/preload.sh"
# The system's tools run as the job's helpers under the sanitizer runtime
# too, and some (tr) leak on purpose: their leaks are not the runtime's.
sanitizer_preload "$prog" "detect_leaks=0:$asan_signals"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-runjob.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir "$t/d" "$t/logs" "$t/mmap" "$t/bin"
unset IOLENS_LOGFILE IOLENS_LOGPATH DARSHAN_LOGFILE DARSHAN_LOGPATH IOLENS_CONFIG_PATH \
    DARSHAN_CONFIG_PATH IOLENS_RUN_DIR IOLENS_RUN_JOBID
# Run directories are made here: the test sees whether any is left.
export IOLENS_MMAP_DIR="$t/mmap"
unset LD_PRELOAD
# What starts iolens run: the user's LD_PRELOAD is the sanitizer runtime alone.
run_env="env ${asan:+LD_PRELOAD=$asan}"

fail() { echo "FAIL: $*"; exit 1; }

# clean [N]: nothing left in the record file directory; N logs (default 0)
# in the current directory $t/d.
clean() {
    [ -z "$(ls -A "$t/mmap")" ] || { ls -lR "$t/mmap"; fail "left in IOLENS_MMAP_DIR"; }
    n=$(find "$t/d" -name '*.darshan' | wc -l)
    [ "$n" = "${1:-0}" ] || { ls "$t/d"; fail "$n logs in the current directory, expected ${1:-0}"; }
}

# one_log: exactly one log in $t/logs, its path in $log, parsed into $t/parsed.
one_log() {
    set -- "$t"/logs/*
    [ $# = 1 ] && [ -f "$1" ] || { ls -l "$t/logs"; fail "$# files in the log directory, expected 1"; }
    log=$1
    "$iolens" parse "$log" > "$t/parsed" || fail "$log does not parse (partial?)"
}

# names: the record names of $t/parsed, HEATMAP's and the standard streams'
# aside (run_prog prints), "MODULE RANK NAME" one per line, sorted.
names() {
    awk -F '\t' '!/^#/ && NF > 5 && $1 != "HEATMAP" && $6 !~ /^<STD(IN|OUT|ERR)>$/ {
        print $1 " " $2 " " $6 }' "$t/parsed" | sort -u
}

nprocs() { sed -n 's/^# nprocs: //p' "$t/parsed"; }

case $mode in
shim)
    cat > "$t/bin/python3" << 'SH'
#!/bin/sh
# A version-manager shim: helpers find the real program, then it runs.
set -e
program=$(basename "$0")
dir=$(dirname "$0")
version=$(echo "3.11" | sed 's/^/v/' | tr -d '\n')
env > /dev/null
[ -n "$version" ] && true
name=$(printf '%s' "$program" | cut -c1-7)
cat < /dev/null
exec "$REAL_PROG" "$@"
SH
    chmod +x "$t/bin/python3"
    (cd "$t/d" && $run_env PATH="$t/bin:$PATH" REAL_PROG="$prog" \
        "$iolens" run -d "$t/logs" python3 "$t/d/io.dat" 0 > "$t/out" 2>&1) ||
        { cat "$t/out"; fail "the shim did not run"; }
    one_log
    [ "$(nprocs)" = 1 ] || fail "nprocs $(nprocs), expected 1 (the I/O program alone)"
    names > "$t/names"
    printf 'POSIX 0 %s\n' "$t/d/io.dat" | cmp -s - "$t/names" ||
        { cat "$t/names"; fail "records other than the I/O program's io.dat"; }
    # The job's first process: the shell the kernel started for the script.
    grep -q "^# exe: [^ ]*sh $t/bin/python3 $t/d/io.dat 0\$" "$t/parsed" ||
        { grep '^# exe' "$t/parsed"; fail "not the command line of the job's first process"; }
    case $(basename "$log") in
        *_sh_id[0-9]*-[0-9]*_*.darshan) ;;
        *) fail "$log: not named after the job's first program" ;;
    esac
    clean
    ;;
bashc)
    (cd "$t/d" && $run_env "$iolens" run -o wrap.darshan bash -c "'$prog' '$t/d/w.dat' 0; echo done" \
        > "$t/out" 2>&1) || { cat "$t/out"; fail "bash -c did not run"; }
    grep -qx done "$t/out" || fail "bash did not go on after the program"
    mv "$t/d/wrap.darshan" "$t/logs/"
    one_log
    awk -F '\t' -v f="$t/d/w.dat" '$4 == "POSIX_BYTES_WRITTEN" && $5 == 100 && $6 == f { ok = 1 }
        END { exit !ok }' "$t/parsed" || fail "no 100 bytes written to w.dat in the -o log"
    clean
    ;;
wrapper)
    (cd "$t/d" && $run_env "$iolens" run -d "$t/logs" env A=1 "$prog" "$t/d/e.dat" 0 > "$t/out" 2>&1) ||
        { cat "$t/out"; fail "env did not run the program"; }
    one_log
    [ "$(nprocs)" = 1 ] || fail "nprocs $(nprocs), expected 1 (the I/O program alone)"
    grep -q "^# exe: env A=1 $prog $t/d/e.dat 0\$" "$t/parsed" ||
        { grep '^# exe' "$t/parsed"; fail "not the command line of the job's first process"; }
    clean
    ;;
killed)
    (cd "$t/d" && $run_env "$iolens" run -d "$t/logs" sh -c \
        "'$prog' '$t/d/k.dat' -9 > /dev/null; '$prog' '$t/d/w.dat' 0 > /dev/null" \
        > "$t/out" 2>&1) || { cat "$t/out"; fail "the tree did not run"; }
    one_log
    [ "$(nprocs)" = 2 ] || fail "nprocs $(nprocs), expected 2"
    names > "$t/names"
    printf 'POSIX 0 %s\nPOSIX 1 %s\n' "$t/d/k.dat" "$t/d/w.dat" | cmp -s - "$t/names" ||
        { cat "$t/names"; fail "not the killed process's k.dat as rank 0 and w.dat as rank 1"; }
    awk -F '\t' -v f="$t/d/k.dat" '$4 == "POSIX_BYTES_WRITTEN" && $5 == 100 && $6 == f { ok = 1 }
        END { exit !ok }' "$t/parsed" || fail "the killed process's 100 bytes are not in the log"
    grep -qx '# metadata: iolens_killed = 1' "$t/parsed" || fail "no iolens_killed = 1"
    grep -qx '# metadata: iolens_killed_ranks = 0' "$t/parsed" || fail "no iolens_killed_ranks = 0"
    clean
    ;;
signal)
    for sig in TERM:143 USR1:138; do
        (
            cd "$t/d"
            $run_env "$iolens" run sh -c 'trap "" INT; exec sleep 30' &
            pid=$!
            sleep 1
            kill -"${sig%:*}" "$pid"
            status=0
            wait "$pid" || status=$?
            [ "$status" = "${sig#*:}" ] || fail "SIG${sig%:*}: status $status, expected ${sig#*:}"
        )
    done
    clean 2
    ;;
static)
    printf 'int main(void) { return 3; }\n' > "$t/static.c"
    "${IOLENS_TEST_CC:-cc}" -static -o "$t/bin/static_prog" "$t/static.c" 2> "$t/cc.err" ||
        { cat "$t/cc.err"; fail "cannot link a static program: install the C library's static libraries (libc6-dev on Debian)"; }
    status=0
    (cd "$t/d" && $run_env "$iolens" run "$t/bin/static_prog" > "$t/out" 2> "$t/err") || status=$?
    [ "$status" = 3 ] || { cat "$t/err"; fail "status $status, expected the program's 3"; }
    [ "$(wc -l < "$t/err")" = 1 ] && grep -q '^iolens run: .*statically linked' "$t/err" ||
        { cat "$t/err"; fail "not one warning line about static linking"; }
    # A dynamically linked program gets no warning.
    (cd "$t/d" && $run_env "$iolens" run "$prog" "$t/d/x.dat" 0 > /dev/null 2> "$t/err2") ||
        fail "run_prog failed"
    ! grep -q 'statically linked' "$t/err2" || fail "warning for a dynamic program"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "ok: iolens run $mode"
