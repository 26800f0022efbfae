#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# make e2e-cloudstack: CloudStack with the patched plugin on its simulator hypervisor, two management
# servers on one MariaDB, each in a network namespace of its own (a management server's msid is its
# MAC address: com.cloud.utils.net.MacAddress), a CKS operation interrupted by a SIGKILL, the cluster
# recovered; in compat mode, then in fenced mode. Beside them, on one server of each build (CloudStack as
# released and patched): the users' reports (scripts/e2e/user_reports.py), and CloudStack's own CKS
# smoke test by Marvin (scripts/e2e/marvin_tests.py). Not part of make test (docs/e2e-cloudstack.md).
#
#   scripts/e2e-cloudstack.sh            for each line of CKS_E2E_LINES (make's LINES; default: main 4.20, the lines with a folder
#                                        cloudstack/e2e/<line>): both builds (cached), then every run side by
#                                        side; reports in target/e2e-cloudstack/<line>/, all lines' in
#                                        target/e2e-cloudstack/report.json (lines.<line>)
#   scripts/e2e-cloudstack.sh build      only a build of CKS_E2E_LINE (default main) (CKS_E2E_BUILD: patched, the default, or unpatched):
#                                        the series (patched) and the harness patches applied, client built
#   scripts/e2e-cloudstack.sh key        print the build's cache key
#   scripts/e2e-cloudstack.sh overlay    the package (.deb) the overlay run's servers unpack, after both builds;
#                                        overlay doctor N [java11]: its doctor on server N (a fault given)
#   scripts/e2e-cloudstack.sh run RUN    one run (compat, fenced, reports-unpatched, reports-patched,
#                                        marvin-unpatched, marvin-patched, reports2-unpatched, reports2-patched,
#                                        overlay: the compat scenario on the as-released build with the overlay)
#   scripts/e2e-cloudstack.sh clean      stop servers, remove namespaces, bridges and databases
#
# Each run has a slot of its own (its place in MODES plus 8 times the line's place in cloudstack/lines.tsv): its
# bridge and subnet 10.77.<slot>, its namespaces, its MariaDB (port 3441 + slot, clear of the tests' ports), its folder
# target/e2e-cloudstack/<line>/<run>. The builds are cached outside the clone (CKS_E2E_CACHE, default
# ~/.cache/cks-state/e2e-cloudstack), keyed on CloudStack's source, the harness patches and, for the
# patched one, the series and the library jar (which builds reproducibly).
# Every wait is bounded; a server that does not come up fails with the tail of its log.
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
# The line this invocation builds or runs (cloudstack/lines.tsv; its harness patches in cloudstack/e2e/<line>).
LINE="${CKS_E2E_LINE:-main}"
# A line the e2e runs: one of cloudstack/lines.tsv with its harness patches; else one line naming those that have.
require_e2e_line() {
    line_field "$1" tarball >/dev/null || exit 1
    [ -d "$ROOT/cloudstack/e2e/$1" ] || { echo "e2e-cloudstack: line $1 has no harness patches (cloudstack/e2e has:" \
        "$(ls "$ROOT/cloudstack/e2e" | tr '\n' ' '))" >&2; exit 1; }
}
require_e2e_line "$LINE"
export CKS_E2E_LINE="$LINE"
# The version CloudStack's upgrade path leaves in a fresh database of the line: its table (spec/state-machine.tsv).
RELEASE="$(line_field "$LINE" database)"
OUTS="$ROOT/target/e2e-cloudstack"
OUT="$OUTS/$LINE"
export CKS_CLOUDSTACK_WORK="${CKS_E2E_CACHE:-$HOME/.cache/cks-state/e2e-cloudstack}"
# The runs, each in its slot: both modes' scenario, the users' reports (halved: reports, reports2) and Marvin per build.
# overlay: the compat scenario on the as-released build with the package's overlay first on its class path.
MODES=(compat fenced reports-unpatched reports-patched marvin-unpatched marvin-patched reports2-unpatched reports2-patched overlay)
# This invocation's run (the scenario's start/kill/conf calls inherit it) and its line's first slot.
SLOT="${CKS_E2E_SLOT:-0}"
LINE_SLOT=$(( ($(lines | grep -nxF -- "$LINE" | cut -d: -f1) - 1) * ${#MODES[@]} ))
# Each line patched with its series (scripts/cloudstack.sh builds it into <work>/<line>/src) or, for the
# users' reports and Marvin, as released (unpatched: <work>/<line>-unpatched/src).
BUILD="${CKS_E2E_BUILD:-$([[ "${MODES[$SLOT]}" = *-unpatched || "${MODES[$SLOT]}" = overlay ]] && echo unpatched || echo patched)}"
case "$BUILD" in
    patched) SRC="$CKS_CLOUDSTACK_WORK/$LINE/src"; HARNESS_PATCHES="$ROOT/cloudstack/e2e/$LINE" ;;
    unpatched) SRC="$CKS_CLOUDSTACK_WORK/$LINE-unpatched/src"; HARNESS_PATCHES="$ROOT/cloudstack/e2e/$LINE/unpatched" ;;
    *) echo "e2e-cloudstack: CKS_E2E_BUILD is patched or unpatched, not $BUILD" >&2; exit 1 ;;
esac
MVN="${CKS_CLOUDSTACK_MVN:-mvn -B -ntp -Dstyle.color=never}"
MVN_FLAGS=(-Dcs.opensaml.version=2.6.4 -Ddownload.plugin.skip=true -Dsimulator)
QUICK_FLAGS=(-DskipTests -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true -Drat.skip=true -Dspotbugs.skip=true
    -Dmaven.source.skip=true -Dmaven.gitcommitid.skip=true)
RUN="$OUT/${MODES[$SLOT]}"
export CKS_MARIADB_PORT=$((${CKS_E2E_MARIADB_PORT:-3441} + LINE_SLOT + SLOT))
export CKS_MARIADB_DIR="$RUN/mariadb"
NET=10.77.$((LINE_SLOT + SLOT))
BRIDGE=cksbr$((LINE_SLOT + SLOT))
NS=cks$((LINE_SLOT + SLOT))
# The zone's public range (a /24): every address answered by the slot's node stand-in.
PUBLIC=192.168.2
STANDIN_IP=$NET.2
VENV="$OUTS/venv"
export CKS_MARIADB_BIND="127.0.0.1,$NET.1"
SOCK="/tmp/cks-mariadb-$CKS_MARIADB_PORT.sock"
# Throwaway credentials of a throwaway database (CloudStack's developer defaults); never printed.
DB_ROOT_PASSWORD=cks-e2e-root
# Servers 1 and 2 run the scenario; 3 (compat only) starts once with cks-state's library unloadable.
SERVERS=(1 2 3)
# Seconds from a management server's start to its status scanner's first pass (upstream: 300; the
# e2e patch 0002 reads it from a system property).
FIRST_PASS="${CKS_E2E_FIRST_PASS_SECONDS:-90}"

log() { echo "e2e-cloudstack: $*" >&2; }
die() { log "$*"; exit 1; }

sql() { mariadb --no-defaults --protocol=socket --socket="$SOCK" -uroot -B -N "$@"; }

# ---- build: the tree of make cloudstack (the series applied), plus the e2e build workarounds, then
# the management server (client) with the simulator, once per source, series and workarounds.
build_key() {
    local tarball jars=()
    tarball="$(line_tarball "$LINE")" || exit 1
    if [ "$BUILD" = patched ]; then
        jars=("$ROOT"/java/library/target/cks-state-*.jar "$ROOT/cloudstack/$LINE/"*.patch)
        [ -f "${jars[0]}" ] || die "the library jar is not built (no $ROOT/java/library/target/cks-state-*.jar): run make build first"
    fi
    { echo "$BUILD"; tarball_sha256 "$tarball"; cat "${jars[@]}" "$HARNESS_PATCHES/"*.patch; } | sha256sum | cut -c1-16
}

# The management server an operator builds (scripts/cloudstack.sh management-server, the same
# command), with the simulator and the e2e's harness patches; then the developer module (deploydb).
cmd_build() {
    local key marker
    key="$(build_key)" || exit 1
    marker="$CKS_CLOUDSTACK_WORK/.built-$LINE-$BUILD-$key"
    if [ -f "$marker" ] && ls "$SRC"/client/target/cloud-client-ui-*.jar >/dev/null 2>&1; then
        log "$BUILD client already built for this source and series ($key)"
        return 0
    fi
    mkdir -p "$OUT"
    rm -f "$CKS_CLOUDSTACK_WORK"/.built-"$LINE-$BUILD"-* "$CKS_CLOUDSTACK_WORK"/.deploydb-"$LINE-$BUILD"-*
    local start=$SECONDS unpatched=()
    [ "$BUILD" = patched ] || unpatched=(--unpatched)
    "$ROOT/scripts/cloudstack.sh" management-server "$LINE" --simulator "${unpatched[@]}" --with "$HARNESS_PATCHES" >/dev/null
    log "the developer module (deploydb)"
    (cd "$SRC" && $MVN "${MVN_FLAGS[@]}" "${QUICK_FLAGS[@]}" -P developer -pl developer install) >> "$OUT/build-$BUILD.log" 2>&1 \
        || die "the developer module did not build (log: $OUT/build-$BUILD.log)"
    touch "$marker"
    log "built in $((SECONDS - start)) s"
}

# ---- network: a bridge on the host, one namespace per server (scripts/e2e/network.sh).
# shellcheck source=e2e/network.sh
source "$ROOT/scripts/e2e/network.sh"

# shellcheck source=e2e/database.sh
source "$ROOT/scripts/e2e/database.sh"
# shellcheck source=e2e/overlay.sh
source "$ROOT/scripts/e2e/overlay.sh"

# ---- servers
server_dir() { echo "$RUN/ms$1"; }

# A line runs up to a dozen JVMs on 2 cores: C1 only and the serial collector leave the JIT's and
# the GC's thread pools out of that contention. They change how fast bytecode runs, never what it
# does. CKS_E2E_JVM_OPTS overrides (empty: the JVM's defaults).
read -r -a LEAN_JVM <<< "${CKS_E2E_JVM_OPTS--XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC}"

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

# start N [unloadable|patched|mismatch]: unloadable: temp folder, home and /var/tmp tmpfs noexec (a hardened host),
# so cks-state's library cannot load; patched: the patched build whatever the run's (the already-stuck case);
# mismatch (overlay run): the package's overlay says it was built for another release.
cmd_start() {
    local n=$1 variant=${2:-} dir jar cp
    local wrap=()
    [ "$variant" = patched ] && SRC="$CKS_CLOUDSTACK_WORK/$LINE/src"
    dir="$(server_dir "$n")"
    server_conf "$n"
    mkdir -p "$dir/tmp"
    if [ "$variant" = unloadable ]; then
        wrap=(unshare -m --propagation private sh -c 'mount -t tmpfs -o noexec,size=256m tmpfs "$0" &&
            mount -t tmpfs -o noexec,size=16m tmpfs /var/tmp && exec "$@"' "$dir/tmp")
    fi
    jar="$(ls "$SRC"/client/target/cloud-client-ui-*.jar | head -1)"
    cp="$dir/conf:$SRC/client/target/conf:$SRC/client/target/common:$SRC/client/target/utilities/scripts/db"
    cp="$cp:$SRC/client/target/utilities/scripts/db/db:$jar:$SRC/client/target/lib/*"
    local overlay=()
    if [ "${MODES[$SLOT]}" = overlay ] && [ "$variant" != patched ]; then
        start_check "$n" "$jar" "$variant"
        if [ -f "$dir/root/run/cks-state/cloudstack-management.env" ]; then
            # What the package's start check wrote: the overlay and the library first, the library in place.
            cp="$dir/root/usr/share/cks-state/lib/cks-state-overlay.jar:$dir/root/usr/share/cks-state/lib/cks-state.jar:$cp"
            overlay=(-Dcks.state.library.path="$dir/root/usr/lib/cks-state/libcks_state.so")
        fi
        log "overlay: $(cat "$dir/root/run/cks-state/status")"
    fi
    log "${MODES[$SLOT]}: starting management server $n in namespace ${NS}ms$n ($NET.1$n)"
    (cd "$SRC" && setsid nohup ip netns exec "${NS}ms$n" "${wrap[@]}" java -Xms512m -Xmx2g "${LEAN_JVM[@]}" \
        ${wrap:+-Duser.home="$dir/tmp"} "${overlay[@]}" \
        --add-opens=java.base/java.lang=ALL-UNNAMED -Djava.security.egd=file:/dev/./urandom \
        -Dlog4j2.configurationFile="$dir/conf/log4j-cloud.xml" -Djava.io.tmpdir="$dir/tmp" \
        -Dcks.e2e.kubernetes.scanner.initial.delay.seconds="$FIRST_PASS" \
        -cp "$cp" org.apache.cloudstack.ServerDaemon > "$dir/log/stdout.log" 2>&1 < /dev/null &
        echo $! > "$dir/pid")
}

cmd_kill() {
    local n=$1 pid
    pid="$(cat "$(server_dir "$n")/pid" 2>/dev/null || true)"
    [ -n "$pid" ] || return 0
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
    # ip netns exec execs java: the pid is the JVM's; any child in the namespace goes too.
    ip netns pids "${NS}ms$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
    rm -f "$(server_dir "$n")/pid"
}

# ---- the e2e's Python packages (the node stand-in's paramiko, Marvin's): from PyPI, pinned, in a venv of its own.
venv() {
    local stamp
    stamp="$VENV/.req-$(sha256sum "$ROOT/scripts/e2e/requirements.txt" | cut -c1-16)"
    [ -f "$stamp" ] && return 0
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    timeout 600 "$VENV/bin/pip" install -q --disable-pip-version-check --require-hashes -r "$ROOT/scripts/e2e/requirements.txt" >&2 \
        || die "the e2e's Python packages did not install (scripts/e2e/requirements.txt)"
    touch "$stamp"
}

standin_start() {
    local dir="$RUN/standin" i
    rm -rf "$dir"
    mkdir -p "$dir"
    setsid nohup ip netns exec "${NS}nodes" "$VENV/bin/python" "$ROOT/scripts/e2e/node_standin.py" --out "$dir" \
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
    ip netns pids "${NS}nodes" 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
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
    local mode=${1:?run: ${MODES[*]}}
    [ "$mode" = "${MODES[$SLOT]}" ] || exec env CKS_E2E_SLOT="$(mode_slot "$mode")" "$0" run "$mode"
    trap cmd_clean EXIT
    rm -rf "$RUN" "$OUT/report-$mode.json" "$OUT/report-$mode.txt"
    mkdir -p "$RUN"
    cks_conf
    venv
    network
    database
    standin_start
    local rc=0 run=(cloudstack_e2e.py --mode "$mode")
    case "$mode" in
        overlay) run=(cloudstack_e2e.py --mode compat --overlay) ;;
        reports*|marvin-*) run=(user_reports.py --run "$([[ "$mode" = reports* ]] && echo cases || echo marvin)"
            --part "$([[ "$mode" = reports2-* ]] && echo 2 || echo 1)" --build "$BUILD" --src "$SRC"
            --python "$VENV/bin/python" --db-port "$CKS_MARIADB_PORT") ;;
    esac
    python3 "$ROOT/scripts/e2e/${run[0]}" "${run[@]:1}" --out "$RUN" --script "$0" \
        --socket "$SOCK" --net "$NET" --public "$PUBLIC" --first-pass "$FIRST_PASS" --release "$RELEASE" || rc=$?
    cp "$RUN/report-$mode.json" "$RUN/report-$mode.txt" "$OUT/" 2>/dev/null || true
    return $rc
}

mode_slot() {
    local i
    for i in "${!MODES[@]}"; do [ "${MODES[$i]}" = "$1" ] && { echo "$i"; return 0; }; done
    die "unknown run $1 (${MODES[*]})"
}

# One line's runs side by side, each in its slot: much of a run is waiting (for the scanner's first
# pass, the heartbeat threshold, the nodes), so two runs at once take little longer than one.
cmd_line() {
    rm -f "$OUT/report.json"
    CKS_E2E_BUILD=patched "$0" build
    CKS_E2E_BUILD=unpatched "$0" build
    overlay
    venv
    local rc=0 i pids=()
    for i in "${!MODES[@]}"; do
        mkdir -p "$OUT"
        CKS_E2E_SLOT=$i "$0" run "${MODES[$i]}" > "$OUT/run-${MODES[$i]}.log" 2>&1 &
        pids+=($!)
        sleep 20 # the servers' start-up is CPU-bound: not both slots' at once
    done
    for i in "${!MODES[@]}"; do
        if ! wait "${pids[$i]}"; then
            rc=1
            log "$LINE ${MODES[$i]} failed: the tail of $OUT/run-${MODES[$i]}.log"
            tail -40 "$OUT/run-${MODES[$i]}.log" >&2
        fi
    done
    for i in "${!MODES[@]}"; do grep -v '^\[' "$OUT/run-${MODES[$i]}.log" | grep -E '^(mode |reports |marvin |e2e-cloudstack:)' >&2 || true; done
    python3 "$ROOT/scripts/e2e/merge.py" line --release "$RELEASE" --out "$OUT" || rc=1
    return $rc
}

# Every line of CKS_E2E_LINES, one after the other (two lines' runs at once would be sixteen: more management
# servers than 2 cores and 24 GiB start in time). Then one report keyed by line.
cmd_all() {
    local line rc=0 start=$SECONDS
    local -a wanted
    read -r -a wanted <<< "${CKS_E2E_LINES:-main 4.20}"
    [ "${#wanted[@]}" -gt 0 ] || die "CKS_E2E_LINES is empty (the lines with harness patches: $(ls "$ROOT/cloudstack/e2e" | tr '\n' ' '))"
    for line in "${wanted[@]}"; do require_e2e_line "$line"; done
    rm -f "$OUTS/report.json"
    for line in "${wanted[@]}"; do rm -f "$OUTS/$line/report.json"; done
    for line in "${wanted[@]}"; do
        log "line $line"
        CKS_E2E_LINE="$line" "$0" line || rc=1
        log "line $line done at $((SECONDS - start)) s"
    done
    python3 "$ROOT/scripts/e2e/merge.py" lines --out "$OUTS" "${wanted[@]}" || rc=1
    log "all lines in $((SECONDS - start)) s"
    return $rc
}

case "${1:-all}" in
    all) cmd_all ;;
    line) cmd_line ;;
    build) cmd_build ;;
    key) build_key ;;
    overlay) if [ "${2:-}" = doctor ]; then overlay_doctor "${@:3}"; else overlay; fi ;;
    run) cmd_run "${@:2}" ;;
    start) cmd_start "${@:2}" ;;
    conf) server_conf "$2" ;;
    kill) cmd_kill "$2" ;;
    clean) for line in "$ROOT"/cloudstack/e2e/*/; do
               line="$(basename "$line")"
               for i in "${!MODES[@]}"; do CKS_E2E_LINE="$line" CKS_E2E_SLOT=$i "$0" clean-slot; done
           done ;;
    clean-slot) cmd_clean ;;
    *) die "usage: $0 [all|line|build|key|overlay|run MODE|start N [unloadable]|kill N|clean]" ;;
esac
