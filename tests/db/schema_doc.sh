#!/bin/sh
# docs/database.md shows the schema as `iolens ingest --schema` prints it.
#   schema_doc.sh IOLENS DOC
set -eu
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-schema.XXXXXX")
trap 'rm -rf "$t"' EXIT
"$1" ingest --schema > "$t/schema.sql" || { echo "FAIL: iolens ingest --schema failed"; exit 1; }
# the ```sql block that follows "## Schema"
awk '/^## Schema/ { s = 1 } s && /^```sql$/ { on = 1; next } on && /^```$/ { exit } on' "$2" > "$t/doc.sql"
printf '\n' >> "$t/doc.sql" # --schema ends each statement with a blank line
if ! cmp -s "$t/schema.sql" "$t/doc.sql"; then
    diff "$t/schema.sql" "$t/doc.sql" || true
    echo "FAIL: $2's schema differs from 'iolens ingest --schema' (above); paste the latter"
    exit 1
fi
echo "ok: docs/database.md shows the schema iolens makes"
