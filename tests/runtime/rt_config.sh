#!/bin/sh
# Configuration tests: run `rt_prog files` under the runtime with a config
# file and/or variables, and check which records the log holds.
#
#   rt_config.sh LIB IOLENS RT_PROG CASE
#
# CASE: file (per-module MAX_RECORDS and NAME_EXCLUDE from a config file with
# some bad lines), envwins (variables override the file; names only begin
# with a setting's; many variables), app (APP_EXCLUDE:
# no log, program unaffected), moddisable (no STDIO or HEATMAP records),
# include (INCLUDE_DIRS brings back a default-excluded prefix). The sanitizer
# set-up is ../lib/preload.sh.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 LIB IOLENS RT_PROG CASE" >&2; exit 2; }
lib=$1 iolens=$2 prog=$3 case=$4
. "$(dirname "$0")/../lib/preload.sh"
sanitizer_preload "$lib"
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-cfg.XXXXXX")
t=$(cd "$t" && pwd -P)
extra=
trap 'rm -rf "$t"; [ -z "$extra" ] || rm -rf "$extra"' EXIT
mkdir "$t/d" "$t/logs" "$t/mmap"

fail() { echo "FAIL ($case): $*"; [ ! -f "$t/out" ] || cat "$t/out"; exit 1; }

# run [VAR=value...]: rt_prog files under the runtime; the program must work.
run() {
    rm -f "$t"/logs/* "$t"/d/*
    (cd "$t/d" && exec env -u IOLENS_CONFIG_PATH -u DARSHAN_CONFIG_PATH "$@" \
        LD_PRELOAD="$preload" IOLENS_LOGPATH="$t/logs" IOLENS_MMAP_DIR="$t/mmap" \
        "$prog" files "$t/d" > "$t/out" 2>&1) || fail "rt_prog files: exit status $?"
    grep -q '^files done$' "$t/out" || fail "rt_prog did not finish"
    ! ls "$t"/mmap/*.iolmap > /dev/null 2>&1 || fail "record file left behind"
}

# The log's text (exactly one log expected).
parse() {
    set -- "$t"/logs/*.darshan
    [ $# -eq 1 ] && [ -f "$1" ] || fail "expected one log, found: $(ls "$t/logs")"
    "$iolens" parse --show-incomplete "$1" > "$t/parse" || fail "parse failed"
}

# names MODULE: the sorted base names of the module's records, on one line.
names() {
    awk -v m="$1" '$1 == m && $4 == m "_OPENS" { n = split($6, p, "/"); print p[n] }' \
        "$t/parse" | sort | tr '\n' ' ' | sed 's/ $//'
}

expect_names() {
    got=$(names "$1")
    [ "$got" = "$2" ] || fail "$1 records: got '$got', expected '$2'"
}

partial() { grep -q "the $1 module's data is incomplete" "$t/parse"; }

cat > "$t/site.conf" <<'CONF'
# A site's config file, in Darshan's syntax.
MAX_RECORDS     6      POSIX
MAX_RECORDS 4 STDIO
NAME_EXCLUDE    \.tmp$        POSIX,STDIO
NAME_EXCLUDE    f4\.dat$      STDIO
  # comments may be indented
NO_SUCH_KEY     1
MODMEM          lots
NAME_EXCLUDE    ([            *
MOD_DISABLE     NO_SUCH_MODULE
CONF

case $case in
file)
    run IOLENS_CONFIG_PATH="$t/site.conf"
    parse
    # The .tmp files are excluded; f4.dat's exclusion is for STDIO only.
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat"
    ! partial POSIX || fail "POSIX marked partial"
    # Four STDIO records: the three standard streams take three (as in
    # Darshan), so one file is kept and the module is partial.
    expect_names STDIO "<STDOUT> s0.txt"
    partial STDIO || fail "STDIO not marked partial"
    # The same file under Darshan's variable name, with diagnostics on.
    run DARSHAN_CONFIG_PATH="$t/site.conf" IOLENS_DEBUG=1
    parse
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat"
    for what in 'unknown setting "NO_SUCH_KEY"' 'ignoring "lots"' 'bad regular expression "(\["' \
                'unknown module "NO_SUCH_MODULE"'; do
        grep -q "site.conf:[0-9]*: $what" "$t/out" || fail "no diagnostic: $what"
    done
    # A config file that cannot be read changes nothing.
    run IOLENS_CONFIG_PATH="$t/missing.conf"
    parse
    expect_names STDIO "<STDOUT> s0.txt s1.txt s2.txt"
    ;;
envwins)
    # One limit for all modules replaces the file's; IOLENS_NAME_EXCLUDE
    # replaces its NAME_EXCLUDE lines.
    run IOLENS_CONFIG_PATH="$t/site.conf" IOLENS_MAX_RECORDS=100 IOLENS_NAME_EXCLUDE='skip1,s2\.txt$'
    parse
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat skip0.tmp skip2.tmp"
    expect_names STDIO "<STDOUT> s0.txt s1.txt"
    ! partial STDIO || fail "STDIO marked partial"
    # The file's MOD_DISABLE gives way to the variable.
    printf 'MOD_DISABLE POSIX\nLOGPATH /nonexistent\n' > "$t/dis.conf"
    run IOLENS_CONFIG_PATH="$t/dis.conf" DARSHAN_MOD_DISABLE=HEATMAP
    parse
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat skip0.tmp skip1.tmp skip2.tmp"
    ! grep -q '^HEATMAP' "$t/parse" || fail "HEATMAP records despite DARSHAN_MOD_DISABLE"
    # A longer name that begins with a setting's name is not that setting;
    # then the same with more than 64 IOLENS_/DARSHAN_ variables (each
    # setting is then looked up in the whole environment).
    many=$(i=0; while [ $i -lt 70 ]; do printf 'DARSHAN_UNUSED_%d=1 ' $i; i=$((i + 1)); done)
    for more in "" "$many"; do
        # shellcheck disable=SC2086 # one word per variable
        run $more IOLENS_MAX_RECORDS_X=1 IOLENS_NAME_EXCLUDE=skip1
        parse
        expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat skip0.tmp skip2.tmp"
    done
    ;;
app)
    run IOLENS_APP_EXCLUDE='^nothing$,rt_pr[o]g$'
    [ -z "$(ls "$t/logs")" ] || fail "a log was written for an excluded application"
    printf 'APP_EXCLUDE   rt_prog\n' > "$t/app.conf"
    run DARSHAN_CONFIG_PATH="$t/app.conf"
    [ -z "$(ls "$t/logs")" ] || fail "a log was written despite the file's APP_EXCLUDE"
    # APP_INCLUDE takes the application back.
    run DARSHAN_CONFIG_PATH="$t/app.conf" IOLENS_APP_INCLUDE='/rt_prog$'
    parse
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat skip0.tmp skip1.tmp skip2.tmp"
    ;;
moddisable)
    run IOLENS_MOD_DISABLE=STDIO,HEATMAP
    parse
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat skip0.tmp skip1.tmp skip2.tmp"
    ! grep -q '^STDIO' "$t/parse" || fail "STDIO records despite IOLENS_MOD_DISABLE"
    ! grep -q '^HEATMAP' "$t/parse" || fail "HEATMAP records despite IOLENS_MOD_DISABLE"
    ! grep -q 'incomplete' "$t/parse" || fail "a disabled module made the log partial"
    ;;
include)
    # /dev/ (and /var/) are excluded by default.
    for base in /dev/shm /var/tmp; do
        extra=$(mktemp -d "$base/iolens-cfg.XXXXXX" 2>/dev/null) && break
    done
    [ -n "$extra" ] || { echo "skipped: no writable /dev/shm or /var/tmp"; exit 77; }
    run RT_EXTRA="$extra/x.dat"
    parse
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat skip0.tmp skip1.tmp skip2.tmp"
    run RT_EXTRA="$extra/x.dat" IOLENS_INCLUDE_DIRS="$extra/"
    parse
    expect_names POSIX "f0.dat f1.dat f2.dat f3.dat f4.dat skip0.tmp skip1.tmp skip2.tmp x.dat"
    # From the config file, and with the exclusion list replaced.
    printf 'INCLUDE_DIRS  /nowhere/,%s/\n' "$extra" > "$t/inc.conf"
    run RT_EXTRA="$extra/x.dat" IOLENS_CONFIG_PATH="$t/inc.conf" IOLENS_EXCLUDE_DIRS="$t/d/,$base/"
    parse
    expect_names POSIX "x.dat"
    ;;
*)
    echo "unknown case $case" >&2
    exit 2
    ;;
esac
echo "ok: $case"
