#!/bin/sh
# Run a test on a folder of real Darshan logs (the layout of tests/data/darshan-logs).
#   with_logs.sh DIR COMMAND [ARG...]
# The folder is $IOLENS_SHARED_LOGS when that is set in the environment, else DIR
# (the CMake cache variable IOLENS_SHARED_LOGS, by default tests/data/darshan-logs).
# Each ARG that is exactly @LOGS@ is replaced by the folder. A folder without
# index.tsv fails the test, saying which folder and where its name came from.
set -eu
if [ -n "${IOLENS_SHARED_LOGS:-}" ]; then
  dir=$IOLENS_SHARED_LOGS
  from="named by IOLENS_SHARED_LOGS in the environment"
else
  dir=$1
  from="named by the CMake cache variable IOLENS_SHARED_LOGS, by default tests/data/darshan-logs"
fi
shift
if [ ! -f "$dir/index.tsv" ]; then
  echo "FAIL: no real Darshan logs at $dir (no index.tsv there), $from." >&2
  echo "FAIL: the repository holds them in tests/data/darshan-logs; see docs/testing.md." >&2
  exit 1
fi
echo "real Darshan logs: $dir"
n=$#
while [ "$n" -gt 0 ]; do
  a=$1
  shift
  [ "$a" = @LOGS@ ] && a=$dir
  set -- "$@" "$a"
  n=$((n - 1))
done
exec "$@"
