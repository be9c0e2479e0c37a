#!/bin/sh
# Live events (IOLENS_EVENTS=file:DIR): events_prog (events_prog.c) under the
# runtime, every line of the sink's files read with Python's json module and
# checked by rt_events.py (the cases are described there).
#
#   rt_events.sh LIB IOLENS EVENTS_PROG CASE
#
# The sanitizer set-up is ../lib/preload.sh.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 LIB IOLENS EVENTS_PROG CASE" >&2; exit 2; }
. "$(dirname "$0")/../lib/preload.sh"
sanitizer_preload "$1" "$asan_signals"
[ -x /usr/bin/python3 ] || { echo "FAIL: /usr/bin/python3 is needed (scripts/install-deps)"; exit 1; }
exec /usr/bin/python3 "$(dirname "$0")/rt_events.py" "$preload" "$2" "$3" "$4"
