#!/bin/sh
# docs/runtime.md's settings table must be the one settings_doc prints from
# src/runtime/settings.h, between the two marker lines.
#
#   settings_doc.sh SETTINGS_DOC DOC [-u]
#
# -u rewrites DOC's table from the settings table instead of comparing.
set -eu
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 SETTINGS_DOC DOC [-u]" >&2; exit 2; }
gen=$1 doc=$2
begin='<!-- settings table: generated from src/runtime/settings.h by tests/runtime/settings_doc.sh -u; edit there -->'
end='<!-- end of the settings table -->'
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-sdoc.XXXXXX")
trap 'rm -rf "$t"' EXIT

"$gen" table > "$t/want" || { echo "FAIL: settings_doc found a broken row in settings.h"; exit 1; }
[ "$(grep -cxF "$begin" "$doc")" = 1 ] && [ "$(grep -cxF "$end" "$doc")" = 1 ] ||
    { echo "FAIL: $doc needs each marker line once:"; echo "$begin"; echo "$end"; exit 1; }
if [ "${3:-}" = -u ]; then
    awk -v b="$begin" -v e="$end" -v w="$t/want" '
        $0 == e { on = 0 }
        !on { print }
        $0 == b { on = 1; while ((getline l < w) > 0) print l }' "$doc" > "$t/new"
    cat "$t/new" > "$doc"
    echo "updated: $doc"
    exit 0
fi
awk -v b="$begin" -v e="$end" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' "$doc" > "$t/got"
if ! diff -u "$t/got" "$t/want"; then
    echo "FAIL: $doc's settings table differs from src/runtime/settings.h (- docs, + table);"
    echo "edit settings.h, then: tests/runtime/settings_doc.sh build/tests/runtime/settings_doc $doc -u"
    exit 1
fi
echo "ok: the docs' settings table is settings.h's"
