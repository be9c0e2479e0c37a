#!/bin/sh
# Print the data lines of a darshan-parser-style output (file $1, or standard
# input) with trailing blanks removed: every non-empty line not starting with
# '#', and every "# KEY: VALUE" line whose KEY starts with a letter or digit
# and is not WARNING. The other '#' lines are prose and are dropped.
# Used by compare_data_lines.sh and by data/import-darshan-logs.sh, so the
# stored references and the comparison agree on what a data line is.
set -eu
sed -e 's/[[:space:]]*$//' ${1+"$1"} | awk '
  /^$/ { next }
  /^#/ { if ($0 ~ /^# [A-Za-z0-9][^:]*:/ && $0 !~ /^# WARNING/) print; next }
  { print }'
