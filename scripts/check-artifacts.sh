#!/usr/bin/env bash
# Checks the two artifacts: what a management server adds to its class path and what
# an operator runs.
# - the library jar holds the binding, the JDBC side and native/, nothing of the tool (cli,
#   simulate, scan) and no third-party class; its runtime dependencies are log4j-api alone;
# - the CLI jar relocates every dependency under ...state.shaded but H2, which stays stock H2 so
#   that its messages read and its files open with stock H2 of the same version; it runs (table; a
#   short simulate on its embedded H2; a read-only scan of a file stock H2 wrote changes nothing,
#   and of a missing database creates none).
#
#   scripts/check-artifacts.sh LIBRARY_JAR CLI_JAR
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: check-artifacts.sh LIBRARY_JAR CLI_JAR" >&2; exit 2; }
library=$1 cli=$2
PKG=org/apache/cloudstack/kubernetes/state
fail() { echo "check-artifacts: $*" >&2; exit 1; }

entries() { unzip -Z1 "$1" | grep -v '/$'; }

stray="$(entries "$library" | grep -vE "^($PKG/|native/|META-INF/)" || true)"
[ -z "$stray" ] || fail "$(basename "$library") carries classes outside $PKG: $(echo "$stray" | head -5 | tr '\n' ' ')"
tool="$(entries "$library" | grep -E "^$PKG/(cli|simulate|scan|text|shaded)/" || true)"
[ -z "$tool" ] || fail "$(basename "$library") carries the tool: $(echo "$tool" | head -5 | tr '\n' ' ')"

deps_file="$(dirname "$library")/runtime-dependencies.txt"
[ -f "$deps_file" ] || fail "no $deps_file (written by the library's package phase)"
deps="$(grep -E '^\s+[a-zA-Z0-9_.-]+:[a-zA-Z0-9_.-]+:' "$deps_file" | sed -E 's/^\s+//; s/ .*//' | sort)"
[ "$(echo "$deps" | cut -d: -f1,2 | sort -u)" = "org.apache.logging.log4j:log4j-api" ] ||
    fail "the library's runtime dependencies are [$(echo $deps)], expected log4j-api alone"
echo "check-artifacts: $(basename "$library"): $(entries "$library" | grep -c '\.class$') classes; runtime dependencies: $(echo $deps)"

unshaded="$(entries "$cli" | grep -E '\.class$' | grep -vE "^($PKG/|META-INF/versions/[0-9]+/$PKG/|org/h2/|META-INF/versions/[0-9]+/org/h2/)" || true)"
[ -z "$unshaded" ] || fail "$(basename "$cli") has classes outside $PKG (not relocated): $(echo "$unshaded" | head -5 | tr '\n' ' ')"
cli_entries="$(entries "$cli")"
grep -q "^org/h2/Driver.class$" <<<"$cli_entries" || fail "$(basename "$cli") lacks stock H2 (org/h2/Driver.class)"
! grep -q "^$PKG/shaded/h2/" <<<"$cli_entries" || fail "$(basename "$cli") relocates H2"
for relocated in picocli mariadb mysql jasypt log4j; do
    grep -q "^$PKG/shaded/$relocated/" <<<"$cli_entries" || fail "$(basename "$cli") lacks the relocated $relocated"
done
out="$(timeout 120 java -jar "$cli" table --format tsv 2>&1)" || fail "java -jar $(basename "$cli") table: $out"
[ "$(echo "$out" | head -n1)" = $'Created\tStartRequested\tStarting' ] || fail "table printed: $(echo "$out" | head -3)"
out="$(timeout 300 java -jar "$cli" simulate --operations 60 --seed 7 2>&1)" || fail "java -jar $(basename "$cli") simulate: $out"
echo "$out" | grep -qE '^ *double_entries +0$' || fail "simulate on the shaded H2 printed: $(echo "$out" | tail -5)"
if echo "$out" | grep -qiE 'provider|log4j'; then fail "the CLI jar printed a logging notice: $(echo "$out" | grep -iE 'provider|log4j' | head -2)"; fi
echo "check-artifacts: $(basename "$cli"): every dependency relocated under $PKG/shaded; table and simulate run"

# H2 as stock H2: a database file written by stock H2 (the same version, from Maven's local
# repository) is read by a dry-run scan, and left byte for byte as it was; a missing database is
# one line and is not created.
h2_version="$(sed -n 's:.*<h2.version>\(.*\)</h2.version>.*:\1:p' "$(dirname "$0")/../java/pom.xml")"
stock_h2="${M2_REPO:-$HOME/.m2/repository}/com/h2database/h2/$h2_version/h2-$h2_version.jar"
[ -f "$stock_h2" ] || fail "no stock H2 $h2_version at $stock_h2 (the Maven build downloads it)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
h2_url="jdbc:h2:file:$work/cloud;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
schema="$(dirname "$0")/../java/library/src/main/resources/$PKG/jdbc/cloudstack-standin.sql"
timeout 60 java -cp "$stock_h2" org.h2.tools.RunScript -url "$h2_url" -user sa -script "$schema" ||
    fail "stock H2 could not create the test database"
timeout 60 java -cp "$stock_h2" org.h2.tools.Shell -url "$h2_url" -user sa -sql "INSERT INTO kubernetes_cluster (uuid, name, state, created, cluster_type) VALUES ('u-1', 'stuck', 'Scaling', NOW(), 'CloudManaged')" >/dev/null ||
    fail "stock H2 could not insert a cluster"
before="$(sha256sum "$work"/cloud.mv.db)"
out="$(timeout 120 java -jar "$cli" scan --jdbc-url "$h2_url" --user sa --password-env CKS_NO_PASSWORD 2>&1)" && rc=0 || rc=$?
[ $rc -eq 2 ] || fail "scan with an unset --password-env exited $rc: $out"
out="$(CKS_EMPTY_PASSWORD= timeout 120 java -jar "$cli" scan --jdbc-url "$h2_url" --user sa --password-env CKS_EMPTY_PASSWORD 2>&1)" ||
    fail "scan of a file stock H2 wrote: $out"
echo "$out" | grep -q 'stuck: Scaling -> Alert' || fail "scan of a file stock H2 wrote printed: $out"
[ "$(sha256sum "$work"/cloud.mv.db)" = "$before" ] || fail "a dry-run scan changed the H2 file"
[ -z "$(ls "$work" | grep -v '^cloud.mv.db$')" ] || fail "a dry-run scan left files beside the database: $(ls "$work")"
out="$(timeout 120 java -jar "$cli" scan --jdbc-url "jdbc:h2:file:$work/missing;MODE=MySQL" 2>&1)" && rc=0 || rc=$?
[ $rc -eq 1 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q 'no such database' ||
    fail "scan of a missing H2 database (exit $rc): $out"
! ls "$work"/missing* >/dev/null 2>&1 || fail "scan of a missing H2 database created one: $(ls "$work")"
out="$(timeout 120 java -jar "$cli" scan --jdbc-url "$h2_url;NO_SUCH_SETTING=1" 2>&1)" && rc=0 || rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'Unsupported connection setting "NO_SUCH_SETTING"' ||
    fail "H2's own messages do not read in the tool (exit $rc): $out"
echo "check-artifacts: $(basename "$cli"): stock H2 $h2_version reads and writes the same files, its messages read; read-only scans change and create none"
