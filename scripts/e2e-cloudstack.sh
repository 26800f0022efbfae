#!/usr/bin/env bash
# make e2e-cloudstack: CloudStack with the patched plugin on its simulator hypervisor, two management
# servers on one MariaDB, each in a network namespace of its own (a management server's msid is its
# MAC address: com.cloud.utils.net.MacAddress), a CKS operation interrupted by a SIGKILL, the cluster
# recovered; in compat mode, then in fenced mode. Not part of make test (docs/e2e-cloudstack.md).
#
#   scripts/e2e-cloudstack.sh            build (cached), then run both modes; report in target/e2e-cloudstack/
#   scripts/e2e-cloudstack.sh build      only the build: the series and cloudstack/e2e applied, client built
#   scripts/e2e-cloudstack.sh run MODE   one mode (compat or fenced) on the built tree
#   scripts/e2e-cloudstack.sh clean      stop servers, remove namespaces, bridge and database
#
# Every wait is bounded; a server that does not come up fails with the tail of its log.
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/target/e2e-cloudstack"
export CKS_CLOUDSTACK_WORK="$OUT/build"
SRC="$CKS_CLOUDSTACK_WORK/src"
MVN="${CKS_CLOUDSTACK_MVN:-mvn -B -ntp -Dstyle.color=never}"
MVN_FLAGS=(-Dcs.opensaml.version=2.6.4 -Ddownload.plugin.skip=true -Dsimulator)
QUICK_FLAGS=(-DskipTests -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true -Drat.skip=true -Dspotbugs.skip=true
    -Dmaven.source.skip=true -Dmaven.gitcommitid.skip=true)
# The private MariaDB: its own port and folder, reachable from the servers' namespaces on the bridge.
export CKS_MARIADB_PORT="${CKS_E2E_MARIADB_PORT:-3417}"
export CKS_MARIADB_DIR="$OUT/mariadb"
NET=10.77.0
BRIDGE=cksbr0
# The zone's public range (a /24): every address answered by the node stand-in in namespace cks-nodes.
PUBLIC=192.168.2
STANDIN_IP=$NET.2
VENV="$OUT/venv"
export CKS_MARIADB_BIND="127.0.0.1,$NET.1"
SOCK="/tmp/cks-mariadb-$CKS_MARIADB_PORT.sock"
# Throwaway credentials of a throwaway database (CloudStack's developer defaults); never printed.
DB_ROOT_PASSWORD=cks-e2e-root
SERVERS=(1 2)

log() { echo "e2e-cloudstack: $*" >&2; }
die() { log "$*"; exit 1; }

sql() { mariadb --no-defaults --protocol=socket --socket="$SOCK" -uroot -B -N "$@"; }

# ---- build: the tree of make cloudstack (the series applied), plus the e2e build workarounds, then
# the management server (client) with the simulator, once per source, series and workarounds.
build_key() {
    cat "$ROOT/../shared/cloudstack/SHA256SUMS" "$ROOT/cloudstack/"*.patch "$ROOT/cloudstack/e2e/"*.patch \
        "$ROOT"/java/library/target/cks-state-*.jar \
        | sha256sum | cut -c1-16
}

cmd_build() {
    local key marker
    key="$(build_key)"
    marker="$CKS_CLOUDSTACK_WORK/.built-$key"
    if [ -f "$marker" ] && ls "$SRC"/client/target/cloud-client-ui-*.jar >/dev/null 2>&1; then
        log "client already built for this source and series ($key)"
        return 0
    fi
    "$ROOT/scripts/cloudstack.sh" modules
    "$ROOT/scripts/cloudstack.sh" apply
    for p in "$ROOT/cloudstack/e2e/"*.patch; do
        (cd "$SRC" && git apply --check "$p" && git apply "$p") || die "$(basename "$p") does not apply"
        log "applied e2e/$(basename "$p")"
    done
    "$ROOT/scripts/cloudstack.sh" library
    local start=$SECONDS
    log "building the management server with the simulator (client and what it needs; log: $OUT/build.log)"
    mkdir -p "$OUT"
    if ! (cd "$SRC" && nice $MVN "${MVN_FLAGS[@]}" "${QUICK_FLAGS[@]}" -pl client -am install) > "$OUT/build.log" 2>&1; then
        grep -E "ERROR|BUILD" "$OUT/build.log" | head -20 >&2
        die "the management server did not build (log: $OUT/build.log)"
    fi
    log "the developer module (deploydb)"
    (cd "$SRC" && $MVN "${MVN_FLAGS[@]}" "${QUICK_FLAGS[@]}" -P developer -pl developer install) >> "$OUT/build.log" 2>&1 \
        || die "the developer module did not build (log: $OUT/build.log)"
    rm -f "$CKS_CLOUDSTACK_WORK"/.built-*
    touch "$marker"
    log "built in $((SECONDS - start)) s"
}

# ---- network: a bridge on the host, one namespace per server with its own MAC and address.
network() {
    if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
        ip link add "$BRIDGE" type bridge
        ip addr add "$NET.1/24" dev "$BRIDGE"
        ip link set "$BRIDGE" up
    fi
    local n ns
    for n in "${SERVERS[@]}"; do
        ns="cks-ms$n"
        ip netns list | grep -qw "$ns" || ip netns add "$ns"
        if ! ip link show "cksh$n" >/dev/null 2>&1; then
            ip link add "cksh$n" type veth peer name "cksp$n"
            ip link set "cksh$n" master "$BRIDGE"
            ip link set "cksh$n" up
            ip link set "cksp$n" netns "$ns"
            # Not named veth*: MacAddress skips those.
            ip netns exec "$ns" ip link set "cksp$n" name eth0
            ip netns exec "$ns" ip link set eth0 address "02:c5:00:00:00:0$n"
            ip netns exec "$ns" ip addr add "$NET.1$n/24" dev eth0
            ip netns exec "$ns" ip link set eth0 up
            ip netns exec "$ns" ip link set lo up
            # A default route: the management server's certificate names the addresses of the default
            # route's device (NetUtils.getAllDefaultNicIps), which peers then verify.
            ip netns exec "$ns" ip route add default via "$NET.1"
            ip netns exec "$ns" ip route add "$PUBLIC.0/24" via "$STANDIN_IP"
        fi
    done
    # The nodes' namespace: every public address is local there (an AnyIP route), so the port-forwarding
    # rules CKS writes on the simulated virtual router lead to the stand-in.
    if ! ip netns list | grep -qw cks-nodes; then
        ip netns add cks-nodes
        ip link add cksh0 type veth peer name cksp0
        ip link set cksh0 master "$BRIDGE"
        ip link set cksh0 up
        ip link set cksp0 netns cks-nodes
        ip netns exec cks-nodes ip addr add "$STANDIN_IP/24" dev cksp0
        ip netns exec cks-nodes ip link set cksp0 up
        ip netns exec cks-nodes ip link set lo up
        ip netns exec cks-nodes ip route add local "$PUBLIC.0/24" dev lo
    fi
}

unnetwork() {
    local n
    for n in "${SERVERS[@]}"; do
        ip netns del "cks-ms$n" 2>/dev/null || true
        ip link del "cksh$n" 2>/dev/null || true
    done
    ip netns del cks-nodes 2>/dev/null || true
    ip link del cksh0 2>/dev/null || true
    ip link del "$BRIDGE" 2>/dev/null || true
}

# ---- database: CloudStack's developer profile (deploydb, then deploydb-simulator) on the private server.
database() {
    "$ROOT/scripts/mariadb.sh" start >&2
    sql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '$DB_ROOT_PASSWORD';
            GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
    # The developer profile's db.properties.override: DatabaseCreator reads the last properties file it
    # is given, whole, so it is CloudStack's developer db.properties pointed at the private server.
    sed -E -e "s#^db\.(cloud|usage|simulator)\.host=.*#db.\1.host=127.0.0.1#" \
        -e "s#^db\.(cloud|usage|simulator)\.port=.*#db.\1.port=$CKS_MARIADB_PORT#" \
        "$SRC/utils/conf/db.properties" > "$SRC/utils/conf/db.properties.override"
    local profile
    for profile in deploydb deploydb-simulator; do
        log "database: developer profile -D$profile"
        # DatabaseCreator prints the passwords it sets: kept out of the log.
        if ! (cd "$SRC" && $MVN "${MVN_FLAGS[@]}" -P developer -pl developer -D"$profile" \
                -Ddb.root.password="$DB_ROOT_PASSWORD" process-resources) 2>&1 \
                | sed -E 's/(password=)[^ ,]*/\1***/g' > "$OUT/deploydb-$profile.log"; then
            tail -30 "$OUT/deploydb-$profile.log" >&2
            die "-D$profile failed (log: $OUT/deploydb-$profile.log)"
        fi
        grep -q "BUILD SUCCESS" "$OUT/deploydb-$profile.log" || die "-D$profile failed (log: $OUT/deploydb-$profile.log)"
    done
}

# ---- servers
server_dir() { echo "$OUT/ms$1"; }

server_conf() {
    local n=$1 dir conf
    dir="$(server_dir "$n")"
    conf="$dir/conf"
    mkdir -p "$conf" "$dir/log"
    sed -E -e "s#^db\.(cloud|usage|simulator)\.host=.*#db.\1.host=$NET.1#" \
        -e "s#^db\.(cloud|usage|simulator)\.port=.*#db.\1.port=$CKS_MARIADB_PORT#" \
        -e "s#^cluster\.node\.IP=.*#cluster.node.IP=$NET.1$n#" \
        "$SRC/client/target/conf/db.properties" > "$conf/db.properties"
    grep -q '^cluster.node.IP=' "$conf/db.properties" || echo "cluster.node.IP=$NET.1$n" >> "$conf/db.properties"
    sed -E -e "s#^webapp\.dir=.*#webapp.dir=#" -e "s#^access\.log=.*#access.log=$dir/log/access.log#" \
        "$SRC/client/target/conf/server.properties" > "$conf/server.properties"
    # The developer build logs to vmops.log in the working folder: each server to its own folder.
    sed -E -e "s#\"vmops\.log#\"$dir/log/management-server.log#g" -e "s#\"api\.log#\"$dir/log/api.log#g" \
        "$SRC/client/target/conf/log4j-cloud.xml" > "$conf/log4j-cloud.xml"
}

cmd_start() {
    local n=$1 dir jar cp
    dir="$(server_dir "$n")"
    server_conf "$n"
    jar="$(ls "$SRC"/client/target/cloud-client-ui-*.jar | head -1)"
    cp="$dir/conf:$SRC/client/target/conf:$SRC/client/target/common:$SRC/client/target/utilities/scripts/db"
    cp="$cp:$SRC/client/target/utilities/scripts/db/db:$jar:$SRC/client/target/lib/*"
    log "starting management server $n in namespace cks-ms$n ($NET.1$n)"
    (cd "$SRC" && setsid nohup ip netns exec "cks-ms$n" java -Xms512m -Xmx2g \
        --add-opens=java.base/java.lang=ALL-UNNAMED -Djava.security.egd=file:/dev/./urandom \
        -Dlog4j2.configurationFile="$dir/conf/log4j-cloud.xml" -Djava.io.tmpdir="$dir/tmp" \
        -cp "$cp" org.apache.cloudstack.ServerDaemon > "$dir/log/stdout.log" 2>&1 < /dev/null &
        echo $! > "$dir/pid")
    mkdir -p "$dir/tmp"
}

cmd_kill() {
    local n=$1 pid
    pid="$(cat "$(server_dir "$n")/pid" 2>/dev/null || true)"
    [ -n "$pid" ] || return 0
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
    # ip netns exec execs java: the pid is the JVM's; any child in the namespace goes too.
    ip netns pids "cks-ms$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
    rm -f "$(server_dir "$n")/pid"
}

# ---- the node stand-in (scripts/e2e/node_standin.py): paramiko from PyPI, pinned, in a venv of its own.
venv() {
    local stamp
    stamp="$VENV/.req-$(sha256sum "$ROOT/scripts/e2e/requirements.txt" | cut -c1-16)"
    [ -f "$stamp" ] && return 0
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    timeout 600 "$VENV/bin/pip" install -q --disable-pip-version-check -r "$ROOT/scripts/e2e/requirements.txt" >&2 \
        || die "the stand-in's Python packages did not install (scripts/e2e/requirements.txt)"
    touch "$stamp"
}

standin_start() {
    local dir="$OUT/standin" i
    rm -rf "$dir"
    mkdir -p "$dir"
    setsid nohup ip netns exec cks-nodes "$VENV/bin/python" "$ROOT/scripts/e2e/node_standin.py" --out "$dir" \
        --socket "$SOCK" > "$dir/stdout.log" 2>&1 < /dev/null &
    echo $! > "$dir/pid"
    for i in $(seq 1 30); do
        grep -q "node stand-in:" "$dir/stdout.log" 2>/dev/null && return 0
        sleep 1
    done
    cat "$dir/stdout.log" >&2
    die "the node stand-in did not start within 30 s"
}

standin_stop() {
    ip netns pids cks-nodes 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
}

cmd_clean() {
    local n
    for n in "${SERVERS[@]}"; do cmd_kill "$n"; done
    standin_stop
    unnetwork
    "$ROOT/scripts/mariadb.sh" stop >/dev/null 2>&1 || true
}

# What CloudStack's packages install beside the jar and the plugin reads from a fixed path
# (KubernetesClusterActionWorker.CKS_CONFIG_PATH; packaging/el8/cloud.spec copies the same files).
cks_conf() {
    mkdir -p /usr/share/cloudstack-management/cks/conf
    cp "$SRC"/plugins/integrations/kubernetes-service/src/main/resources/conf/* /usr/share/cloudstack-management/cks/conf/
}

cmd_run() {
    local mode=${1:?mode: compat or fenced}
    trap cmd_clean EXIT
    rm -rf "$OUT/ms1" "$OUT/ms2" "$OUT/report-$mode.json" "$OUT/report-$mode.txt"
    cks_conf
    venv
    network
    database
    standin_start
    python3 "$ROOT/scripts/e2e/cloudstack_e2e.py" --mode "$mode" --out "$OUT" --script "$0" \
        --socket "$SOCK" --net "$NET" --public "$PUBLIC"
}

cmd_all() {
    cmd_build
    local rc=0 mode
    for mode in compat fenced; do
        "$0" run "$mode" || rc=1
    done
    python3 "$ROOT/scripts/e2e/cloudstack_e2e.py" --merge --out "$OUT" || rc=1
    return $rc
}

case "${1:-all}" in
    all) cmd_all ;;
    build) cmd_build ;;
    run) cmd_run "${@:2}" ;;
    start) cmd_start "$2" ;;
    conf) server_conf "$2" ;;
    kill) cmd_kill "$2" ;;
    clean) cmd_clean ;;
    *) die "usage: $0 [all|build|run MODE|start N|kill N|clean]" ;;
esac
