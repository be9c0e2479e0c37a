#!/bin/sh
# Configuration tests: run `rt_prog files` under the runtime with a config
# file and/or variables, and check which records the log holds.
#
#   rt_config.sh LIB IOLENS RT_PROG CASE SETTINGS_DOC
#
# CASE: file (per-module MAX_RECORDS and NAME_EXCLUDE from a config file with
# some bad lines), envwins (variables override the file; names only begin
# with a setting's; many variables), app (APP_EXCLUDE:
# no log, program unaffected), moddisable (no STDIO or HEATMAP records),
# include (INCLUDE_DIRS brings back a default-excluded prefix), table (every
# spelling of every row of src/runtime/settings.h, as SETTINGS_DOC lists
# them, sets its setting, in the order of precedence, as DUMP_CONFIG shows).
# The sanitizer set-up is ../lib/preload.sh.
set -eu
[ $# -eq 5 ] || { echo "usage: $0 LIB IOLENS RT_PROG CASE SETTINGS_DOC" >&2; exit 2; }
lib=$1 iolens=$2 prog=$3 case=$4 settings_doc=$5
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
NAME_EXCLUDE    a.?+++++++++++++++++++++++,(f{255}){255}   POSIX
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
    # (the two costly expressions are refused before regcomp, which would
    # take gigabytes and minutes at the program's start)
    for what in 'unknown setting "NO_SUCH_KEY"' 'ignoring "lots"' 'bad regular expression "(\["' \
                'unknown module "NO_SUCH_MODULE"' 'regular expression "a.?+*" repeats a repetition' \
                'regular expression "(f{255}){255}" repeats a part over 1000 times'; do
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
    # then the same among 70 more DARSHAN_ variables that are no setting.
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
table)
    "$settings_doc" rows > "$t/rows" || fail "settings_doc rows"
    # Every spelling of every row leaves the inherited environment.
    unset_all=$(awk '{ for (i = 4; i <= 5; i++) if ($i != "-") printf "-u %s ", $i;
                       if ($3 != "-") printf "-u IOLENS_%s ", $3 }' "$t/rows")
    touch "$t/empty.conf"
    # value TYPE NAME SIDE: a value of the type (side a or b); want: the
    # dump's text for it.
    value() {
        case $1.$3 in
        CONFIG.*) echo "$t/empty.conf" ;;
        FLAG.* | DEBUG.*) echo 1 ;;
        PRESENCE.*) echo "" ;;
        PATH.*) echo "$t/$3.$2" ;;
        VARNAME.a) echo IOL_TEST_VAR_A ;; VARNAME.b) echo IOL_TEST_VAR_B ;;
        WORD.a) echo iol-word-a ;; WORD.b) echo iol-word-b ;;
        MIB.a) echo 3 ;; MIB.b) echo 5 ;;
        RECORDS.a) echo 77 ;; RECORDS.b) echo 55 ;;
        ALIGN.a) echo 16 ;; ALIGN.b) echo 32 ;;
        COUNT.a) echo 7 ;; COUNT.b) echo 3 ;;
        FRACTION.a) echo 0.25 ;; FRACTION.b) echo 0.75 ;;
        HINTS.a) echo 'cb_nodes=2;x=y' ;; HINTS.b) echo cb_nodes=3 ;;
        PREFIXES.a) echo /iol-a/,/iol-c/ ;; PREFIXES.b) echo /iol-b/ ;;
        APP_REGEX.*) echo "^iol-nomatch-$3\$" ;;
        NAME_REGEX.*) echo "iol-$3\\.x" ;;
        MODS.a) echo LUSTRE,STDIO ;; MODS.b) echo BGQ ;;
        RANKS.a) echo 1:2,4 ;; RANKS.b) echo 3 ;;
        COMPAT.a) echo 3.5 ;; COMPAT.b) echo newest ;;
        SECONDS.a) echo 1.5 ;; SECONDS.b) echo 2.25 ;;
        *) fail "no sample value for type $1" ;;
        esac
    }
    want() {
        case $1 in
        PRESENCE) echo 1 ;;
        MIB) echo "$(value "$@") MiB" ;;
        SECONDS) case $3 in a) echo 1.50 ;; *) echo 2.25 ;; esac ;;
        NAME_REGEX) echo "$(value "$@") *" ;;
        *) value "$@" ;;
        esac
    }
    while read -r name key alias iol dar type def; do
        [ "$type" != PATH ] || mkdir -p "$t/a.$name" "$t/b.$name"
    done < "$t/rows"
    # dump [VAR=value...]: rt_prog under the runtime; $t/dump: its settings.
    dump() {
        # shellcheck disable=SC2086 # one word per option
        (cd "$t/d" && exec env $unset_all "$@" LD_PRELOAD="$preload" "$prog" basic "$t/d" \
            > "$t/out" 2>&1) || fail "rt_prog basic: exit status $?"
        sed -n 's/^iolens\[[0-9]*\]: config: //p' "$t/out" > "$t/dump"
        [ -s "$t/dump" ] || fail "no settings printed"
    }
    # check WHAT SIDE FILTER: every row FILTER selects (an awk condition on
    # $1 name $2 key $3 alias $4 IOLENS_ $5 Darshan's) shows side's value.
    check() {
        what=$1 side=$2 other=b
        [ "$side" = a ] || other=a
        awk "$3" "$t/rows" > "$t/sel"
        [ -s "$t/sel" ] || fail "$what: no rows"
        while read -r name key alias iol dar type def; do
            w=$(want "$type" "$name" "$side")
            grep -qxF "$name = $w" "$t/dump" || fail "$what: $name: no line '$name = $w' in the dump:
$(cat "$t/dump")"
            case $type in
            FLAG | DEBUG | PRESENCE | CONFIG) ;;
            *) ! grep -qF "$name = $(want "$type" "$name" "$other")" "$t/dump" ||
                    fail "$what: $name still shows the other value" ;;
            esac
        done < "$t/sel"
    }
    # conf SIDE COLUMN FILTER: a config file of the rows selected, keyed by
    # column 2 (key) or 3 (alias).
    conf() {
        awk "$3" "$t/rows" | while read -r name key alias iol dar type def; do
            k=$key; [ "$2" = 2 ] || k=$alias
            printf '%s\t%s\n' "$k" "$(value "$type" "$name" "$1")"
        done > "$t/$1.$2.conf"
        [ "$2" = 2 ] || echo DUMP_CONFIG >> "$t/$1.$2.conf"
    }
    # vars SIDE COLUMN FILTER: the selected rows' variables (column 4
    # IOLENS_, 3 alias, 5 Darshan's), one per line.
    vars() {
        awk "$3" "$t/rows" | while read -r name key alias iol dar type def; do
            case $2 in 4) v=$iol ;; 3) v=IOLENS_$alias ;; *) v=$dar ;; esac
            printf '%s=%s\n' "$v" "$(value "$type" "$name" "$1")"
        done
    }
    # with FILE...: dump with the variables listed in the files.
    with() {
        cat "$@" > "$t/vars"
        set --
        while IFS= read -r line; do set -- "$@" "$line"; done < "$t/vars"
        dump "$@"
    }
    # Defaults: the numbers the docs give.
    dump IOLENS_DUMP_CONFIG=1
    awk '$6 == "MIB" || $6 == "RECORDS" || $6 == "ALIGN" || $6 == "COUNT"' "$t/rows" > "$t/sel"
    while read -r name key alias iol dar type def; do
        sed -n "s/^$name = \([0-9]*\).*/\1/p" "$t/dump" | grep -qx "$def" ||
            fail "default of $name: the docs say $def, the dump: $(grep "^$name = " "$t/dump")"
    done < "$t/sel"
    # Each spelling alone.
    conf a 2 '$2 != "-"'
    dump IOLENS_CONFIG_PATH="$t/a.2.conf"
    check "config file key" a '$2 != "-"'
    conf a 3 '$3 != "-"'
    dump IOLENS_CONFIG_PATH="$t/a.3.conf"
    check "config file alias" a '$3 != "-"'
    vars a 4 '$4 != "-"' > "$t/v1"
    with "$t/v1"
    check "IOLENS_ variable" a '$4 != "-"'
    vars a 3 '$3 != "-"' > "$t/v1"
    echo IOLENS_DUMP_CONFIG=1 >> "$t/v1"
    with "$t/v1"
    check "IOLENS_ alias" a '$3 != "-"'
    vars a 5 '$5 != "-"' > "$t/v1"
    with "$t/v1"
    check "Darshan's variable" a '$5 != "-"'
    # Precedence: IOLENS_ over its alias over Darshan's over the file (whose
    # list lines the variable replaces).
    conf b 2 '$2 != "-"'
    vars b 5 '$5 != "-"' > "$t/v1"
    vars b 3 '$3 != "-"' > "$t/v2"
    vars a 4 '$4 != "-"' > "$t/v3"
    echo "IOLENS_CONFIG_PATH=$t/b.2.conf" >> "$t/v3"
    with "$t/v1" "$t/v2" "$t/v3"
    check "IOLENS_ first" a '$4 != "-" && $6 != "CONFIG"'
    vars a 3 '$3 != "-"' > "$t/v2"
    printf 'IOLENS_DUMP_CONFIG=1\nIOLENS_CONFIG_PATH=%s\n' "$t/b.2.conf" > "$t/v3"
    with "$t/v1" "$t/v2" "$t/v3"
    check "the alias before Darshan's" a '$3 != "-"'
    vars a 5 '$5 != "-"' > "$t/v1"
    echo "IOLENS_CONFIG_PATH=$t/b.2.conf" > "$t/v2"
    with "$t/v1" "$t/v2"
    check "Darshan's before the file" a '$5 != "-" && $2 != "-"'
    # A variable set to 0 turns off what the file turned on.
    printf 'INTERNAL_TIMING\nDUMP_CONFIG\n' > "$t/on.conf"
    dump IOLENS_CONFIG_PATH="$t/on.conf" DARSHAN_INTERNAL_TIMING=0
    grep -qx 'INTERNAL_TIMING = 0' "$t/dump" || fail "DARSHAN_INTERNAL_TIMING=0 did not win"
    ;;
*)
    echo "unknown case $case" >&2
    exit 2
    ;;
esac
echo "ok: $case"
