#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# A throwaway MariaDB server for the JDBC tests: 127.0.0.1 only, its own port, socket and data
# directory (the repo's .mariadb/, gitignored), database `cloud`, user cks/cks (also on `cks_sim`),
# user cloudop (on `cloud`), and cksdba, a database administrator (every privilege, with grant).
# The binary log is on, as CloudStack's install guide sets it (log-bin, binlog-format ROW), with
# log_bin_trust_function_creators=1 so that the tests' own fenced migrations run as `cks`; the tests
# of a server without it turn it off as cksdba and back on.
#
#   scripts/mariadb.sh install   install mariadb-server/-client from Debian's packages if missing
#   scripts/mariadb.sh start     install if needed, initialise the data dir, start, wait, create db/user
#                                (idempotent: a running server is reused)
#   scripts/mariadb.sh url       print the JDBC URL (with credentials) of that server
#   scripts/mariadb.sh stop      shut the server down and remove its data directory
#   scripts/mariadb.sh status    exit 0 when the server answers
#   scripts/mariadb.sh restart   shut the server down (keeping its data) and start it again on the
#                                same port and data directory (fault injection: `make soak`, tests)
#
# Environment: CKS_MARIADB_PORT (default 3407), CKS_MARIADB_DIR (default <repo>/.mariadb/<port>),
# CKS_MARIADB_BIND (default 127.0.0.1; make e2e-cloudstack adds its servers' bridge address).
# Works as root (CI=true, no stdin): the server then runs with --user=root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${CKS_MARIADB_PORT:-3407}"
BIND="${CKS_MARIADB_BIND:-127.0.0.1}"
BASE="${CKS_MARIADB_DIR:-$ROOT/.mariadb/$PORT}"
DATA="$BASE/data"
SOCK="/tmp/cks-mariadb-$PORT.sock"
PIDF="$BASE/mariadbd.pid"
LOG="$BASE/mariadbd.log"
DB=cloud
DB_USER=cks
DB_PASS=cks
# An empty database of its own for `simulate` (which refuses a database it did not create), and an
# operator account with a password no other text contains (the tool's no-secret-printed tests).
SIM_DB=cks_sim
OP_USER=cloudop
OP_PASS=Op-S3cret-4417
DBA_USER=cksdba
DBA_PASS=Dba-S3cret-2290
export PATH="$PATH:/usr/sbin:/usr/local/sbin:/sbin"

log() { echo "mariadb.sh: $*" >&2; }

find_server() { command -v mariadbd || command -v mysqld || true; }
find_client() { command -v mariadb || command -v mysql || true; }
find_admin() { command -v mariadb-admin || command -v mysqladmin || true; }
find_installdb() { command -v mariadb-install-db || command -v mysql_install_db || true; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

do_install() {
    if [ -n "$(find_server)" ] && [ -n "$(find_client)" ] && [ -n "$(find_installdb)" ]; then
        return 0
    fi
    log "installing mariadb-server and mariadb-client from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -q </dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        mariadb-server mariadb-client </dev/null ||
        log "apt-get install reported an error (often only the system service failing to start); checking the binaries"
    if [ -z "$(find_server)" ] || [ -z "$(find_installdb)" ]; then
        log "mariadbd still missing after apt-get install"
        exit 1
    fi
}

client() {
    "$(find_client)" --no-defaults --protocol=socket --socket="$SOCK" -uroot "$@" </dev/null
}

answers() {
    local admin
    admin="$(find_admin)"
    [ -S "$SOCK" ] && [ -n "$admin" ] && "$admin" --no-defaults --protocol=socket --socket="$SOCK" \
        -uroot --connect-timeout=2 ping >/dev/null 2>&1
}

server_pid() {
    [ -f "$PIDF" ] && cat "$PIDF" 2>/dev/null || true
}

do_start() {
    do_install
    if answers; then
        log "server on port $PORT already answers"
    else
        local server installdb me pid i
        server="$(find_server)"
        installdb="$(find_installdb)"
        me="$(id -un)"
        mkdir -p "$BASE"
        pid="$(server_pid)"
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            log "a server (pid $pid) holds $DATA but does not answer on $SOCK; run '$0 stop' first"
            exit 1
        fi
        if [ ! -d "$DATA/mysql" ]; then
            rm -rf "$DATA"
            mkdir -p "$DATA"
            log "initialising $DATA"
            "$installdb" --no-defaults --user="$me" --datadir="$DATA" --auth-root-authentication-method=socket \
                --skip-test-db >"$BASE/install-db.log" 2>&1 </dev/null || {
                cat "$BASE/install-db.log" >&2
                exit 1
            }
        fi
        rm -f "$SOCK"
        log "starting mariadbd on $BIND:$PORT"
        # setsid + nohup: the server outlives this script and ignores the caller's terminal.
        setsid nohup "$server" --no-defaults --user="$me" --datadir="$DATA" \
            --bind-address="$BIND" --port="$PORT" --socket="$SOCK" --pid-file="$PIDF" \
            --log-error="$LOG" --log-bin=mariadb-bin --binlog-format=ROW --server-id=1 \
            --log-bin-trust-function-creators=1 --skip-name-resolve \
            --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
            --innodb-buffer-pool-size=128M --innodb-log-file-size=48M \
            --innodb-flush-log-at-trx-commit=2 --sync-binlog=0 --innodb-doublewrite=0 \
            --innodb-lock-wait-timeout=20 --transaction-isolation=REPEATABLE-READ \
            >/dev/null 2>&1 </dev/null &
        for i in $(seq 1 120); do
            if answers; then break; fi
            pid="$(server_pid)"
            if [ "$i" -gt 5 ] && [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
                break
            fi
            sleep 0.5
        done
        if ! answers; then
            log "server did not answer; its log:"
            tail -n 40 "$LOG" >&2 || true
            exit 1
        fi
    fi
    client -e "CREATE DATABASE IF NOT EXISTS \`$DB\` CHARACTER SET utf8mb4;
        CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
        CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASS';
        GRANT ALL PRIVILEGES ON \`$DB\`.* TO '$DB_USER'@'127.0.0.1';
        GRANT ALL PRIVILEGES ON \`$DB\`.* TO '$DB_USER'@'localhost';
        CREATE DATABASE IF NOT EXISTS \`$SIM_DB\` CHARACTER SET utf8mb4;
        GRANT ALL PRIVILEGES ON \`$SIM_DB\`.* TO '$DB_USER'@'127.0.0.1';
        GRANT ALL PRIVILEGES ON \`$SIM_DB\`.* TO '$DB_USER'@'localhost';
        CREATE USER IF NOT EXISTS '$OP_USER'@'127.0.0.1' IDENTIFIED BY '$OP_PASS';
        GRANT ALL PRIVILEGES ON \`$DB\`.* TO '$OP_USER'@'127.0.0.1';
        CREATE USER IF NOT EXISTS '$DBA_USER'@'127.0.0.1' IDENTIFIED BY '$DBA_PASS';
        GRANT ALL PRIVILEGES ON *.* TO '$DBA_USER'@'127.0.0.1' WITH GRANT OPTION;
        SET GLOBAL log_bin_trust_function_creators = 1;
        FLUSH PRIVILEGES;"
    log "ready: $(do_url | sed -E 's/(password=)[^&]*/\1***/')"
}

do_url() {
    echo "jdbc:mariadb://127.0.0.1:$PORT/$DB?user=$DB_USER&password=$DB_PASS"
}

# Shuts the server down and waits for its process to end; the data directory stays.
do_shutdown() {
    local admin pid i
    admin="$(find_admin)"
    pid="$(server_pid)"
    if answers; then
        "$admin" --no-defaults --protocol=socket --socket="$SOCK" -uroot shutdown >/dev/null 2>&1 || true
    fi
    if [ -n "$pid" ]; then
        for i in $(seq 1 60); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        if kill -0 "$pid" 2>/dev/null; then
            log "server $pid did not stop; sending TERM"
            kill "$pid" 2>/dev/null || true
            sleep 2
        fi
    fi
}

do_restart() {
    if ! answers; then
        log "no server answers on port $PORT; starting one"
    fi
    do_shutdown
    log "server on port $PORT shut down; starting it again"
    do_start
}

do_stop() {
    do_shutdown
    rm -rf "$DATA"
    rm -f "$PIDF" "$LOG" "$BASE/install-db.log" "$SOCK"
    rmdir "$BASE" 2>/dev/null || true
    [ -n "${CKS_MARIADB_DIR:-}" ] || rmdir "$ROOT/.mariadb" 2>/dev/null || true
    log "stopped"
}

case "${1:-}" in
    install) do_install ;;
    start) do_start ;;
    url) do_url ;;
    stop) do_stop ;;
    status) answers ;;
    restart) do_restart ;;
    *)
        echo "usage: $0 install|start|url|stop|status|restart" >&2
        exit 2
        ;;
esac
