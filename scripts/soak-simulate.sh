#!/usr/bin/env bash
# Long `cks-state simulate` runs for `make soak`: one on embedded H2 with many management-server
# crashes, then one on a private MariaDB server (its own port and data directory, never the
# shared test server) that is restarted every RESTART_EVERY seconds while the run goes on.
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
exit "$rc"
