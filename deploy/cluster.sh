#!/bin/sh
# croupier on one machine: PostgreSQL, Redis, N `croupier serve` processes sharing the tables
# (issue 29: leases with fencing, fail-over in seconds) and HAProxy in front, with WebSocket
# upgrades. Debian's packages, installed when missing. docs/deploy.md says what each part does
# and how to spread it over several machines (change the addresses below).
#
#   deploy/cluster.sh start [N]   # N processes (default 3) behind http://127.0.0.1:8000/
#   deploy/cluster.sh status      # each process's readiness, and which tables it runs
#   deploy/cluster.sh stop        # everything this script started (PostgreSQL and Redis stay)
#   deploy/cluster.sh config [N]  # only write HAProxy's configuration for N processes, and print it
#
# Settings (environment): CROUPIER_DATABASE (a SQLAlchemy URL; default a database `croupier`
# on 127.0.0.1:5432), CROUPIER_REDIS (redis://127.0.0.1:6379/0), CROUPIER_LISTEN (127.0.0.1:8000),
# CROUPIER_FIRST_PORT (8001), CROUPIER_RUN (the run folder: logs, pids, haproxy.cfg, the
# operator's token; default ./croupier-cluster), CROUPIER_SERVE_ARGS (more `serve` options).
set -eu

N="${2:-3}"
RUN="${CROUPIER_RUN:-$PWD/croupier-cluster}"
LISTEN="${CROUPIER_LISTEN:-127.0.0.1:8000}"
FIRST_PORT="${CROUPIER_FIRST_PORT:-8001}"
REDIS="${CROUPIER_REDIS:-redis://127.0.0.1:6379/0}"
PGHOST_="${CROUPIER_PGHOST:-127.0.0.1}"
DATABASE="${CROUPIER_DATABASE:-postgresql+psycopg://${PGUSER:-postgres}@$PGHOST_:5432/croupier}"
HERE="$(cd "$(dirname "$0")/.." && pwd)"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need() {  # need COMMAND PACKAGE: install Debian's package when the command is missing
    command -v "$1" >/dev/null 2>&1 || { as_root apt-get update -q && as_root apt-get install -y -q "$2"; }
}

start_postgresql() {
    need pg_isready postgresql
    if ! pg_isready -q -h "$PGHOST_" -p 5432; then
        as_root pg_ctlcluster "$(ls /etc/postgresql | sort -n | tail -1)" main start
        sleep 2
    fi
    # The database, once (its schema is croupier's migrations, run by the first process).
    psql_url="postgresql://${PGUSER:-postgres}@$PGHOST_:5432/postgres"
    psql -q "$psql_url" -tc "SELECT 1 FROM pg_database WHERE datname = 'croupier'" | grep -q 1 \
        || psql -q "$psql_url" -c "CREATE DATABASE croupier" \
        || echo "cluster.sh: could not create the database croupier: set CROUPIER_DATABASE" >&2
}

start_redis() {
    need redis-server redis-server
    redis-cli -u "$REDIS" ping >/dev/null 2>&1 || redis-server --daemonize yes --save "" >/dev/null
}

write_haproxy_cfg() {
    {
        cat <<CFG
global
    maxconn 4000
    pidfile $RUN/haproxy.pid

defaults
    mode http
    option forwardfor
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    # A WebSocket, once upgraded, is a tunnel: a table's socket lives as long as its player.
    timeout tunnel 1h
    # HAProxy's own refusals (no process ready, one killed mid-answer, one too slow) in the
    # servers' error document, code unavailable, with Retry-After: never an HTML page.
    errorfile 502 $HERE/deploy/errors/502.http
    errorfile 503 $HERE/deploy/errors/503.http
    errorfile 504 $HERE/deploy/errors/504.http

frontend croupier
    bind $LISTEN
    # Scrape each process's /metrics directly (one registry per process), never through here.
    http-request deny if { path_beg /metrics }
    # Only a croupier process says that it forwarded a request (its owner counts where the
    # table's requests come from), never a client.
    http-request del-header X-Croupier-Forwarded
    # The table a request is for, from its path (the table's page and socket, a player's,
    # the dealer's and the operator's routes): /tables/17/bets, /table/17, /dealer/tables/17/..
    # give 17; any other path stands for itself.
    http-request set-var(txn.table) "path,regsub('^/(dealer/|operator/)?tables?/([0-9]+)(/.*)?','\\\\2')"
    default_backend processes

backend processes
    # Every request for one table to one process, by the table's id. Any process answers any
    # player (it forwards a request to the table's owner), and a table's lease follows its
    # requests (src/croupier/service/leases.py): within a few rounds each table is run where
    # its requests arrive, and none is forwarded. A process that is not ready (fail safe,
    # lost leases) gets none; its tables' requests go to the others (consistent hashing
    # moves only those).
    balance hash var(txn.table)
    hash-type consistent
    option httpchk GET /health/ready
    http-check expect status 200
    # A loaded process answers its readiness slowly: 5 s before a check fails, 3 in a row
    # before it gets no new request (its open sockets stay: its fail safe stops its tables).
    timeout check 5s
    default-server inter 1s fall 3 rise 1
CFG
        i=0
        while [ "$i" -lt "$N" ]; do
            echo "    server croupier$i 127.0.0.1:$((FIRST_PORT + i)) check"
            i=$((i + 1))
        done
    } > "$RUN/haproxy.cfg"
}

start() {
    mkdir -p "$RUN"
    start_postgresql
    start_redis
    need haproxy haproxy
    [ -f "$RUN/operator-token" ] || python3 -c "import secrets; print(secrets.token_urlsafe(32))" > "$RUN/operator-token"
    i=0
    while [ "$i" -lt "$N" ]; do
        port=$((FIRST_PORT + i))
        # Run from the run folder: the code manifest, the audit key and head are kept there.
        # shellcheck disable=SC2086 # CROUPIER_SERVE_ARGS is a list of options
        (cd "$RUN" && exec uv run --project "$HERE" croupier serve --host 127.0.0.1 --port "$port" \
            --database "$DATABASE" --broadcast "$REDIS" --advertise "http://127.0.0.1:$port" \
            --trusted-proxy 127.0.0.1 --operator-token "$(cat "$RUN/operator-token")" \
            ${CROUPIER_SERVE_ARGS:-}) > "$RUN/serve-$i.log" 2>&1 &
        echo $! > "$RUN/serve-$i.pid"
        i=$((i + 1))
    done
    write_haproxy_cfg
    haproxy -c -q -f "$RUN/haproxy.cfg"
    haproxy -D -f "$RUN/haproxy.cfg"
    echo "croupier: $N processes behind http://$LISTEN/ (logs in $RUN)"
    echo "  operator token: $(cat "$RUN/operator-token")"
    echo "  metrics: http://127.0.0.1:$FIRST_PORT/metrics ... one per process"
}

status() {
    for pid_file in "$RUN"/serve-*.pid; do
        [ -f "$pid_file" ] || continue
        i=$(basename "$pid_file" .pid | cut -d- -f2)
        port=$((FIRST_PORT + i))
        ready=$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$port/health/ready" || true)
        running=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^croupier_tables_running /{print $2}')
        echo "process $i (pid $(cat "$pid_file"), port $port): ready $ready, tables run ${running:-?}"
    done
}

stop() {
    [ -f "$RUN/haproxy.pid" ] && kill "$(cat "$RUN/haproxy.pid")" 2>/dev/null || true
    for pid_file in "$RUN"/serve-*.pid; do
        [ -f "$pid_file" ] || continue
        # uv's child is the server: a clean stop gives its tables up at once.
        pkill -TERM -P "$(cat "$pid_file")" 2>/dev/null || true
        kill "$(cat "$pid_file")" 2>/dev/null || true
        rm -f "$pid_file"
    done
    rm -f "$RUN/haproxy.pid"
}

case "${1:-}" in
    start) start ;;
    status) status ;;
    stop) stop ;;
    config) mkdir -p "$RUN" && write_haproxy_cfg && cat "$RUN/haproxy.cfg" ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
esac
