# Sourced by the database tests: servers of their own, in $work (a temporary
# directory the test made), stopped by stop_servers (call it from a trap).
#
#   start_pg          PostgreSQL (initdb + pg_ctl from /usr/lib/postgresql/*/bin)
#                     on a free port, its socket in $work/pg; sets $pg_url.
#                     As root, the server runs as the user nobody (PostgreSQL
#                     refuses root), with its directory owned by nobody.
#   start_broker      mosquitto on 127.0.0.1, a free port, persistence in
#                     $work/mq; sets $mq_port. Again (restart_broker) on the same port.
#   stop_servers
#
# A server that is missing or does not start fails the test with a message.

fail() { echo "FAIL: $*"; exit 1; }

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Run a command as the server's user.
as_pg_user() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env -- "$@"
    else
        "$@"
    fi
}

start_pg() {
    pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$pgbin" ] && [ -x "$pgbin/initdb" ] ||
        fail "PostgreSQL's initdb not found in /usr/lib/postgresql/*/bin (install postgresql: scripts/install-deps)"
    mkdir -p "$work/pg"
    [ "$(id -u)" -ne 0 ] || chown nobody:nogroup "$work/pg"
    chmod 755 "$work"
    pg_port=$(free_port)
    as_pg_user "$pgbin/initdb" -D "$work/pg/data" -U iolens --auth=trust -E UTF8 \
        > "$work/pg-initdb.log" 2>&1 || { cat "$work/pg-initdb.log"; fail "initdb failed"; }
    as_pg_user "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w -t 30 \
        -o "-p $pg_port -k $work/pg -c listen_addresses='' -c fsync=off" start \
        > "$work/pg-start.log" 2>&1 || { cat "$work/pg-start.log" "$work/pg/server.log"; fail "PostgreSQL did not start"; }
    pg_started=1
    as_pg_user "$pgbin/createdb" -h "$work/pg" -p "$pg_port" -U iolens iolens ||
        fail "createdb failed"
    pg_url="postgresql://iolens@/iolens?host=$work/pg&port=$pg_port"
}

start_broker() {
    command -v mosquitto > /dev/null || [ -x /usr/sbin/mosquitto ] ||
        fail "mosquitto not found (install mosquitto: scripts/install-deps)"
    command -v mosquitto_pub > /dev/null || fail "mosquitto_pub not found (install mosquitto-clients)"
    mq_port=${mq_port:-$(free_port)}
    mkdir -p "$work/mq"
    cat > "$work/mq/mosquitto.conf" <<CONF
listener $mq_port 127.0.0.1
allow_anonymous true
persistence true
persistence_location $work/mq/
# keep every message for an offline session (the default keeps 1,000)
max_queued_messages 0
log_dest file $work/mq/broker.log
CONF
    # as root, mosquitto would switch to the user mosquitto, who cannot write $work
    [ "$(id -u)" -ne 0 ] || echo "user root" >> "$work/mq/mosquitto.conf"
    PATH=$PATH:/usr/sbin mosquitto -c "$work/mq/mosquitto.conf" 2>> "$work/mq/stderr.log" &
    mq_pid=$!
    # ready when it accepts a connection
    i=0
    until mosquitto_pub -h 127.0.0.1 -p "$mq_port" -t iolens/ping -m x 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 100 ] || fail "mosquitto did not start (log: $(cat "$work/mq/broker.log" 2>/dev/null))"
        kill -0 "$mq_pid" 2>/dev/null || fail "mosquitto exited at start: $(cat "$work/mq/broker.log" 2>/dev/null)"
        sleep 0.05
    done
}

# Stop the broker as SIGTERM does (its persistence file written) and start it again.
restart_broker() {
    kill "$mq_pid"
    wait "$mq_pid" 2>/dev/null || true
    start_broker
}

stop_servers() {
    [ -z "${mq_pid:-}" ] || { kill "$mq_pid" 2>/dev/null; wait "$mq_pid" 2>/dev/null; }
    [ -z "${pg_started:-}" ] ||
        as_pg_user "$pgbin/pg_ctl" -D "$work/pg/data" -m immediate stop > /dev/null 2>&1
    rm -rf "$work"
}
