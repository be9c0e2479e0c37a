#!/bin/sh
# The mqtt:// events sink against Debian's mosquitto broker, started by the
# test on 127.0.0.1 on a free port: rt_events_mqtt.py runs events_prog
# (events_prog.c) and checks what a subscriber (mosquitto_sub) received.
#
#   rt_events_mqtt.sh LIB IOLENS EVENTS_PROG CASE
#
# The sanitizer set-up is ../lib/preload.sh.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 LIB IOLENS EVENTS_PROG CASE" >&2; exit 2; }
. "$(dirname "$0")/../lib/preload.sh"
sanitizer_preload "$1" "$asan_signals"
[ -x /usr/bin/python3 ] || { echo "FAIL: /usr/bin/python3 is needed (scripts/install-deps)"; exit 1; }
for tool in mosquitto mosquitto_sub mosquitto_pub; do
    command -v $tool > /dev/null 2>&1 || [ -x /usr/sbin/$tool ] ||
        { echo "FAIL: $tool not found: install mosquitto and mosquitto-clients (scripts/install-deps)"; exit 1; }
done
exec /usr/bin/python3 "$(dirname "$0")/rt_events_mqtt.py" "$preload" "$2" "$3" "$4"
