#!/bin/sh
# Compare the data lines (see data_lines.sh) of two darshan-parser-style
# outputs, files $1 and $2; prints their diff, empty when they agree.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
a=$(mktemp); b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
"$here/data_lines.sh" "$1" > "$a"
"$here/data_lines.sh" "$2" > "$b"
diff "$a" "$b"
