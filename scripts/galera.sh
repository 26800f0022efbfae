#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# A throwaway 3-node MariaDB Galera cluster on 127.0.0.1 for the process simulation: Debian's
# mariadb-server and galera-4, each node with its own ports, socket and folder under /tmp, the
# servers running as the `mysql` user (rsync SST fails as root). Database `cks_sim`, user cks/cks.
#
#   scripts/galera.sh install        install galera-4, rsync and lsof (and mariadb-server) if missing
#   scripts/galera.sh start          install if needed, bootstrap node 1, join nodes 2 and 3, wait until
#                                    the cluster has 3 synced members, create the database and user
#   scripts/galera.sh urls           print the three nodes' JDBC URLs (with credentials), one per line
#   scripts/galera.sh kill-node N    SIGKILL node N (1..3): a database node dies mid-run
#   scripts/galera.sh start-node N   start node N again; it rejoins (IST or SST) and is waited for
#   scripts/galera.sh stop           shut every node down and remove the folders
#   scripts/galera.sh status         exit 0 when every node answers and the cluster has 3 members
#
# Environment: CKS_GALERA_PORT (node 1's SQL port, default 3417; nodes 2 and 3 use the next two).
# Every wait is bounded; a node that does not come up prints the end of its log.
set -euo pipefail

PORT0="${CKS_GALERA_PORT:-3417}"
BASE="/tmp/cks-galera-$PORT0"
NODES=(1 2 3)
DB=cks_sim
DB_USER=cks
DB_PASS=cks
export PATH="$PATH:/usr/sbin:/usr/local/sbin:/sbin"

log() { echo "galera.sh: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

# The user the servers run as: mysql when this runs as root (rsync SST refuses root), else the caller.
server_user() {
    if [ "$(id -u)" -eq 0 ]; then echo mysql; else id -un; fi
}

sql_port() { echo $((PORT0 + $1 - 1)); }
# Group communication, IST and SST ports of node N: 4617, 4618, 4619 for node 1 (default), +10 per node.
gcomm_port() { echo $((PORT0 + 1200 + 10 * ($1 - 1))); }
ist_port() { echo $(($(gcomm_port "$1") + 1)); }
sst_port() { echo $(($(gcomm_port "$1") + 2)); }
dir_of() { echo "$BASE/node$1"; }
sock_of() { echo "$BASE/node$1.sock"; }

do_install() {
    if [ -f /usr/lib/galera/libgalera_smm.so ] && command -v rsync >/dev/null && command -v lsof >/dev/null \
        && command -v mariadbd >/dev/null && command -v mariadb-install-db >/dev/null; then
        return 0
    fi
    log "installing mariadb-server, galera-4, rsync and lsof from Debian's packages"
    as_root apt-get update -q </dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        mariadb-server mariadb-client galera-4 rsync lsof </dev/null ||
        log "apt-get install reported an error (often only the system service failing to start); checking"
    [ -f /usr/lib/galera/libgalera_smm.so ] || { log "galera-4 still missing after apt-get install"; exit 1; }
}

client() {
    local n="$1"
    shift
    mariadb --no-defaults --protocol=socket --socket="$(sock_of "$n")" -uroot --connect-timeout=2 "$@" </dev/null
}

answers() { [ -S "$(sock_of "$1")" ] && client "$1" -Nse "SELECT 1" >/dev/null 2>&1; }

cluster_size() { client "$1" -Nse "SHOW STATUS LIKE 'wsrep_cluster_size'" 2>/dev/null | awk '{print $2}'; }
synced() { [ "$(client "$1" -Nse "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | awk '{print $2}')" = Synced ]; }

addresses() {
    local n out=""
    for n in "${NODES[@]}"; do out="$out${out:+,}127.0.0.1:$(gcomm_port "$n")"; done
    echo "$out"
}

# Starts node N (bootstrap: a new cluster) and waits until it answers and is Synced.
start_node() {
    local n="$1" bootstrap="${2:-}" dir user i
    dir="$(dir_of "$n")"
    user="$(server_user)"
    if answers "$n"; then
        log "node $n already answers"
        return 0
    fi
    mkdir -p "$dir"
    if [ ! -d "$dir/data/mysql" ]; then
        mkdir -p "$dir/data"
        [ "$user" = "$(id -un)" ] || chown -R "$user:" "$BASE"
        mariadb-install-db --no-defaults --user="$user" --datadir="$dir/data" --auth-root-authentication-method=socket \
            --skip-test-db >"$dir/install-db.log" 2>&1 </dev/null || { cat "$dir/install-db.log" >&2; exit 1; }
    fi
    [ "$user" = "$(id -un)" ] || chown -R "$user:" "$BASE"
    chmod 755 "$BASE"
    rm -f "$(sock_of "$n")"
    log "starting node $n on 127.0.0.1:$(sql_port "$n")${bootstrap:+ (bootstrapping the cluster)}"
    setsid nohup mariadbd --no-defaults --user="$user" --datadir="$dir/data" \
        --bind-address=127.0.0.1 --port="$(sql_port "$n")" --socket="$(sock_of "$n")" \
        --pid-file="$dir/mariadbd.pid" --log-error="$dir/mariadbd.log" --skip-name-resolve \
        --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
        --innodb-buffer-pool-size=64M --innodb-log-file-size=48M --innodb-flush-log-at-trx-commit=2 \
        --binlog-format=ROW --default-storage-engine=InnoDB --innodb-autoinc-lock-mode=2 \
        --log-bin-trust-function-creators=1 \
        --wsrep-on=ON --wsrep-provider=/usr/lib/galera/libgalera_smm.so --wsrep-cluster-name="cks-$PORT0" \
        --wsrep-node-name="node$n" --wsrep-node-address="127.0.0.1:$(gcomm_port "$n")" \
        --wsrep-cluster-address="gcomm://$(addresses)" \
        --wsrep-provider-options="gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$n");ist.recv_addr=127.0.0.1:$(ist_port "$n");gcache.size=64M" \
        --wsrep-sst-method=rsync --wsrep-sst-receive-address="127.0.0.1:$(sst_port "$n")" \
        ${bootstrap:+--wsrep-new-cluster} >/dev/null 2>&1 </dev/null &
    for i in $(seq 1 240); do
        if answers "$n" && synced "$n"; then
            return 0
        fi
        sleep 0.5
    done
    log "node $n did not become Synced within 120 s; its log:"
    tail -n 40 "$dir/mariadbd.log" >&2 || true
    exit 1
}

do_start() {
    do_install
    local n
    if [ -d "$BASE" ] && ! answers 1 && ! answers 2 && ! answers 3; then
        rm -rf "$BASE" # a previous cluster's leftovers: nothing of it runs
    fi
    if answers 1 || answers 2 || answers 3; then
        for n in "${NODES[@]}"; do start_node "$n"; done
    else
        start_node 1 bootstrap
        start_node 2
        start_node 3
    fi
    [ "$(cluster_size 1)" = 3 ] || { log "the cluster has $(cluster_size 1) members, not 3"; exit 1; }
    client 1 -e "CREATE DATABASE IF NOT EXISTS \`$DB\` CHARACTER SET utf8mb4;
        CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
        GRANT ALL PRIVILEGES ON \`$DB\`.* TO '$DB_USER'@'127.0.0.1';"
    log "ready: 3 synced nodes on 127.0.0.1:$(sql_port 1)-$(sql_port 3)"
}

do_urls() {
    local n
    for n in "${NODES[@]}"; do
        echo "jdbc:mariadb://127.0.0.1:$(sql_port "$n")/$DB?user=$DB_USER&password=$DB_PASS"
    done
}

pid_of() { cat "$(dir_of "$1")/mariadbd.pid" 2>/dev/null || true; }

wait_gone() {
    local pid="$1" i
    for i in $(seq 1 60); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.5
    done
    kill -KILL "$pid" 2>/dev/null || true
}

do_kill_node() {
    local n="$1" pid
    pid="$(pid_of "$n")"
    [ -n "$pid" ] || { log "node $n has no pid"; exit 1; }
    kill -KILL "$pid" 2>/dev/null || true
    wait_gone "$pid"
    log "node $n (pid $pid) killed"
}

do_stop() {
    local n pid
    for n in "${NODES[@]}"; do
        pid="$(pid_of "$n")"
        if answers "$n"; then
            mariadb-admin --no-defaults --protocol=socket --socket="$(sock_of "$n")" -uroot shutdown \
                >/dev/null 2>&1 || true
        fi
        [ -z "$pid" ] || wait_gone "$pid"
    done
    rm -rf "$BASE"
    log "stopped"
}

do_status() {
    local n
    for n in "${NODES[@]}"; do answers "$n" || return 1; done
    [ "$(cluster_size 1)" = 3 ]
}

case "${1:-}" in
    install) do_install ;;
    start) do_start ;;
    urls) do_urls ;;
    kill-node) do_kill_node "${2:?node 1..3}" ;;
    start-node) do_install; start_node "${2:?node 1..3}" ;;
    stop) do_stop ;;
    status) do_status ;;
    *)
        echo "usage: $0 install|start|urls|kill-node N|start-node N|stop|status" >&2
        exit 2
        ;;
esac
