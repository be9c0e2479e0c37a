#!/bin/sh
# Compare the data lines of two darshan-parser-style outputs (files $1 and $2):
# every non-empty line not starting with '#', and every "# KEY: VALUE" line whose
# KEY starts with a letter or digit and is not WARNING; trailing blanks ignored.
set -eu
filter() {
  sed -e 's/[[:space:]]*$//' "$1" | awk '
    /^$/ { next }
    /^#/ { if ($0 ~ /^# [A-Za-z0-9][^:]*:/ && $0 !~ /^# WARNING/) print; next }
    { print }'
}
a=$(mktemp); b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
filter "$1" > "$a"
filter "$2" > "$b"
diff "$a" "$b"
