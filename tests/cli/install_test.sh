#!/bin/sh
# `make install` puts the documentation where users look: docs/*.md in
# share/doc/iolens and the man page in share/man/man1. The man page renders
# without a warning, and names every verb of `iolens --help`, every option of
# each verb's --help, and an exit status for each verb.
#
#   install_test.sh CMAKE BUILD_DIR SOURCE_DIR
set -eu
[ $# -eq 3 ] || { echo "usage: $0 CMAKE BUILD_DIR SOURCE_DIR" >&2; exit 2; }
cmake=$1 build=$2 src=$3
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-install.XXXXXX")
trap 'rm -rf "$t"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

command -v groff > /dev/null ||
    fail "groff not found: it renders the man page (scripts/install-deps installs groff-base)"
"$cmake" --install "$build" --prefix "$t/inst" > "$t/install.log" 2>&1 ||
    { cat "$t/install.log"; fail "cmake --install"; }

for f in "$src"/docs/*.md; do
    cmp -s "$f" "$t/inst/share/doc/iolens/${f##*/}" || fail "${f##*/} not in share/doc/iolens"
done
page=$t/inst/share/man/man1/iolens.1
[ -f "$page" ] || fail "no share/man/man1/iolens.1"

# Rendered as man(1) would, one paragraph a line (no line breaks inside a
# name), bold and underline overstrikes removed. Any warning is a failure.
groff -man -Tascii -rLL=1000n -ww "$page" > "$t/page.raw" 2> "$t/groff.err" ||
    { cat "$t/groff.err"; fail "groff failed on the man page"; }
[ ! -s "$t/groff.err" ] || { cat "$t/groff.err"; fail "groff warnings on the man page"; }
sed 's/.\x08//g' "$t/page.raw" > "$t/page.txt"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT FILES; do
    grep -q "^$section\$" "$t/page.txt" || fail "man page: no $section section"
done

iolens=$t/inst/bin/iolens
verbs=$("$iolens" --help | awk '/^verbs:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$verbs" ] || fail "iolens --help lists no verb"
for verb in $verbs; do
    grep -q "^ *iolens $verb " "$t/page.txt" || fail "man page: no iolens $verb"
    # Each verb has its subsection under EXIT STATUS.
    awk -v v="$verb" '/^EXIT STATUS$/ { on = 1 } /^ENVIRONMENT$/ { on = 0 }
        on && /^   iolens/ && index($0 ",", " " v ",") { found = 1 } END { exit !found }' \
        "$t/page.txt" || fail "man page: no exit status of iolens $verb"
    for opt in $("$iolens" "$verb" --help |
                 awk '/^ +-/ { for (i = 1; i <= NF && $i ~ /^-/; i++) { sub(/,$/, "", $i); print $i } }'); do
        grep -q -- "$opt\\b" "$t/page.txt" || fail "man page: no $opt of iolens $verb"
    done
done

# man(1) finds it in the prefix, where it is installed.
if command -v man > /dev/null; then
    MANPATH=$t/inst/share/man man -w iolens > /dev/null 2>&1 ||
        fail "man does not find iolens under $t/inst/share/man"
fi
echo "ok: documentation and man page installed"
