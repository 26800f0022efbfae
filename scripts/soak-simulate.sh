#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Long `cks-state simulate` runs for `make soak`: one on embedded H2 with many management-server
# crashes, then one on a private MariaDB server (its own port and data directory, never the
# shared test server) that is restarted every RESTART_EVERY seconds while the run goes on, then
# `--processes` runs in both modes on a private 3-node Galera cluster (SIGKILLs, pauses, node kills).
# Each run must end with exit status 0 (every invariant holds, the history check included).
#
# Usage: scripts/soak-simulate.sh JAR [OPERATIONS] [RESTART_EVERY]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR=$1
OPERATIONS=${2:-20000}
RESTART_EVERY=${3:-20}
export CKS_MARIADB_PORT="${CKS_SOAK_MARIADB_PORT:-3419}"

echo "soak-simulate: H2, $OPERATIONS operations, 40 crashes"
java -jar "$JAR" simulate --operations "$OPERATIONS" --crashes 40 --arrival-ms 3 --duration 900 --quiet \
    --format json | tee "$ROOT/java/target-soak-simulate-h2.json"

"$ROOT/scripts/mariadb.sh" start
trap '"$ROOT/scripts/mariadb.sh" stop' EXIT
# A short connectTimeout: the driver's pool then fails fast while the server is down (database
# errors the run must absorb) instead of stalling for the default 30 s.
URL="$("$ROOT/scripts/mariadb.sh" url)&connectTimeout=3000"
echo "soak-simulate: MariaDB on port $CKS_MARIADB_PORT, $OPERATIONS operations, restarted every ${RESTART_EVERY}s"
java -jar "$JAR" simulate --jdbc-url "$URL" --operations "$OPERATIONS" --crashes 20 --arrival-ms 10 \
    --duration 1800 --quiet --format json >"$ROOT/java/target-soak-simulate-mariadb.json" &
sim=$!
restarts=0
while kill -0 "$sim" 2>/dev/null; do
    sleep "$RESTART_EVERY"
    kill -0 "$sim" 2>/dev/null || break
    "$ROOT/scripts/mariadb.sh" restart >/dev/null 2>&1 && restarts=$((restarts + 1))
done
rc=0
wait "$sim" || rc=$?
cat "$ROOT/java/target-soak-simulate-mariadb.json"
echo "soak-simulate: MariaDB run exit status $rc after $restarts server restarts"
[ "$rc" -eq 0 ] || exit "$rc"
"$ROOT/scripts/mariadb.sh" stop
trap - EXIT

export CKS_GALERA_PORT="${CKS_SOAK_GALERA_PORT:-3437}"
"$ROOT/scripts/galera.sh" start
trap '"$ROOT/scripts/galera.sh" stop' EXIT
mapfile -t NODES < <("$ROOT/scripts/galera.sh" urls)
for mode in compat fenced; do
    echo "soak-simulate: Galera, --processes, $mode mode, $((OPERATIONS / 10)) operations"
    java -jar "$JAR" simulate --processes --mode "$mode" --jdbc-url "${NODES[0]}" --jdbc-url "${NODES[1]}" \
        --jdbc-url "${NODES[2]}" --operations $((OPERATIONS / 10)) --crashes 20 --pauses 6 --db-node-kills 4 \
        --db-node-hook "$ROOT/scripts/galera.sh" --arrival-ms 30 --operation-ms 200 --duration 1800 --quiet \
        --format json | tee "$ROOT/java/target-soak-simulate-galera-$mode.json"
done
