#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Checks the three artifacts: what a management server adds to its class path, what an operator
# runs, and the simulator.
# - the library jar holds the binding, the JDBC side and native/, nothing of the tool (cli,
#   simulate, scan), of the test kit or of the simulator, and no third-party class; its runtime
#   dependencies are log4j-api alone;
# - the CLI jar carries no simulator, no test kit and no test class; it relocates every dependency under ...state.shaded but H2 and the two JDBC drivers,
#   which stay stock and unmodified (H2 so that its files open with stock H2 of the same version; the
#   drivers so that their licenses' terms for modified copies never arise); it runs (table; a
#   read-only scan of a file stock H2 wrote changes nothing,
#   and of a missing database creates none), and never loads a libcks_state.so planted on
#   java.library.path or in its working folder (its own checked copy instead);
# - both jars carry the license and notice, and the native library's third-party notice; the CLI jar
#   lists every library it bundles, with its license, in META-INF/third-party/THIRD-PARTY.txt;
# - the simulator jar is the CLI jar's commands plus simulate and the test kit, relocated alike, with
#   the same notices; a short simulate runs on its embedded H2.
#
#   scripts/check-artifacts.sh LIBRARY_JAR CLI_JAR SIMULATOR_JAR
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: check-artifacts.sh LIBRARY_JAR CLI_JAR SIMULATOR_JAR" >&2; exit 2; }
library=$1 cli=$2 simulator=$3
PKG=org/apache/cloudstack/kubernetes/state
fail() { echo "check-artifacts: $*" >&2; exit 1; }

entries() { unzip -Z1 "$1" | grep -v '/$'; }

stray="$(entries "$library" | grep -vE "^($PKG/|native/|META-INF/)" || true)"
[ -z "$stray" ] || fail "$(basename "$library") carries classes outside $PKG: $(echo "$stray" | head -5 | tr '\n' ' ')"
tool="$(entries "$library" | grep -E "^$PKG/(tool|simulate|shaded|testkit)/" || true)"
[ -z "$tool" ] || fail "$(basename "$library") carries the tool: $(echo "$tool" | head -5 | tr '\n' ' ')"

deps_file="$(dirname "$library")/runtime-dependencies.txt"
[ -f "$deps_file" ] || fail "no $deps_file (written by the library's package phase)"
deps="$(grep -E '^\s+[a-zA-Z0-9_.-]+:[a-zA-Z0-9_.-]+:' "$deps_file" | sed -E 's/^\s+//; s/ .*//' | sort)"
[ "$(echo "$deps" | cut -d: -f1,2 | sort -u)" = "org.apache.logging.log4j:log4j-api" ] ||
    fail "the library's runtime dependencies are [$(echo $deps)], expected log4j-api alone"
echo "check-artifacts: $(basename "$library"): $(entries "$library" | grep -c '\.class$') classes; runtime dependencies: $(echo $deps)"

for jar in "$library" "$cli" "$simulator"; do
    for legal in META-INF/LICENSE META-INF/NOTICE META-INF/THIRD-PARTY-NATIVE.txt; do
        unzip -Z1 "$jar" "$legal" >/dev/null 2>&1 || fail "$(basename "$jar") has no $legal"
    done
    grep -q "Apache License" <(unzip -p "$jar" META-INF/LICENSE) || fail "$(basename "$jar")'s META-INF/LICENSE is not the Apache License"
done
third_party="$(unzip -p "$cli" META-INF/third-party/THIRD-PARTY.txt)" || fail "$(basename "$cli") has no META-INF/third-party/THIRD-PARTY.txt"
cli_deps="$(dirname "$0")/../java/tool/target/runtime-dependencies.txt"
[ -f "$cli_deps" ] || fail "no $cli_deps (written by the tool's package phase)"
# group:artifact:version of every library the CLI jar bundles (the library's own test kit aside).
bundled="$(grep -E '^\s+[a-zA-Z0-9_.-]+:[a-zA-Z0-9_.-]+:' "$cli_deps" | sed -E 's/^\s+//; s/ .*//' \
    | awk -F: '$1 != "org.apache.cloudstack.kubernetes" { print $1 ":" $2 ":" $4 }' | sort -u)"
for dep in $bundled; do
    grep -q "^$dep " <<<"$third_party" || fail "META-INF/third-party/THIRD-PARTY.txt does not list $dep"
done
unshaded="$(entries "$cli" | grep -E '\.class$' | grep -vE "^($PKG/|META-INF/versions/[0-9]+/$PKG/|org/h2/|META-INF/versions/[0-9]+/org/h2/|org/mariadb/jdbc/|META-INF/versions/[0-9]+/org/mariadb/jdbc/|com/mysql/)" || true)"
[ -z "$unshaded" ] || fail "$(basename "$cli") has classes outside $PKG (not relocated): $(echo "$unshaded" | head -5 | tr '\n' ' ')"
cli_entries="$(entries "$cli")"
grep -q "^org/h2/Driver.class$" <<<"$cli_entries" || fail "$(basename "$cli") lacks stock H2 (org/h2/Driver.class)"
! grep -q "^$PKG/shaded/h2/" <<<"$cli_entries" || fail "$(basename "$cli") relocates H2"
# The drivers are the stock jars' classes, byte for byte.
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
m2="$(m2_repo)"
for driver in org.mariadb.jdbc:mariadb-java-client:org/mariadb/jdbc/Driver.class com.mysql:mysql-connector-j:com/mysql/cj/jdbc/Driver.class; do
    IFS=: read -r group artifact class <<<"$driver"
    version="$(grep "^$group:$artifact:" <<<"$bundled" | cut -d: -f3)"
    stock="$m2/${group//.//}/$artifact/$version/$artifact-$version.jar"
    [ -f "$stock" ] || fail "no stock $artifact $version at $stock"
    [ "$(unzip -p "$cli" "$class" | sha256sum)" = "$(unzip -p "$stock" "$class" | sha256sum)" ] \
        || fail "$(basename "$cli")'s $class is not $artifact $version's"
done
for relocated in picocli jasypt log4j; do
    grep -q "^$PKG/shaded/$relocated/" <<<"$cli_entries" || fail "$(basename "$cli") lacks the relocated $relocated"
done
out="$(timeout 120 java -jar "$cli" table --format tsv 2>&1)" || fail "java -jar $(basename "$cli") table: $out"
[ "$(echo "$out" | head -n1)" = $'Created\tStartRequested\tStarting' ] || fail "table printed: $(echo "$out" | head -3)"
# No simulator, test kit or test class (a test class's name ends in Test, Tests or Fixtures).
harness="$(grep -E "^$PKG/(simulate|testkit)/|^$PKG/.*(Test|Tests|Fixtures)(\\\$[^/]*)?\.class$" <<<"$cli_entries" || true)"
[ -z "$harness" ] || fail "$(basename "$cli") carries the simulator, the test kit or a test class: $(echo "$harness" | head -5 | tr '\n' ' ')"
out="$(timeout 120 java -jar "$cli" help 2>&1)" || fail "java -jar $(basename "$cli") help: $out"
! grep -q simulate <<<"$out" || fail "$(basename "$cli") offers simulate: $out"
echo "check-artifacts: $(basename "$cli"): picocli, jasypt and log4j relocated under $PKG/shaded, H2 and the JDBC drivers stock; license, notices and third-party list in; no simulator, test kit or test class; table runs"

# The simulator jar: the tool's commands, simulate and the test kit, shaded as the CLI jar; the same list.
sim_entries="$(entries "$simulator")"
for class in "$PKG/simulate/SimulatorMain.class" "$PKG/testkit/CloudStackRows.class" "$PKG/tool/cli/ScanCommand.class" "$PKG/shaded/picocli/CommandLine.class"; do
    grep -qx "$class" <<<"$sim_entries" || fail "$(basename "$simulator") lacks $class"
done
[ "$(unzip -p "$simulator" META-INF/third-party/THIRD-PARTY.txt)" = "$third_party" ] || fail "$(basename "$simulator")'s third-party list is not the CLI jar's"
out="$(timeout 300 java -jar "$simulator" simulate --operations 60 --seed 7 2>&1)" || fail "java -jar $(basename "$simulator") simulate: $out"
grep -qE '^ *double_entries +0$' <<< "$out" || fail "simulate on the shaded H2 printed: $(echo "$out" | tail -5)"
if grep -qiE 'provider|log4j' <<< "$out"; then fail "the simulator jar printed a logging notice: $(echo "$out" | grep -iE 'provider|log4j' | head -2)"; fi
echo "check-artifacts: $(basename "$simulator"): the tool, simulate and the test kit; the CLI jar's notices and third-party list; a simulate runs"

# H2 as stock H2: a database file written by stock H2 (the same version, from Maven's local
# repository) is read by a dry-run scan, and left byte for byte as it was; a missing database is
# one line and is not created.
h2_version="$(sed -n 's:.*<h2.version>\(.*\)</h2.version>.*:\1:p' "$(dirname "$0")/../java/pom.xml")"
stock_h2="$m2/com/h2database/h2/$h2_version/h2-$h2_version.jar"
[ -f "$stock_h2" ] || fail "no stock H2 $h2_version at $stock_h2 (the Maven build downloads it)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
h2_url="jdbc:h2:file:$work/cloud;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
schema="$(dirname "$0")/../java/testkit/src/main/resources/$PKG/testkit/cloudstack-standin.sql"
timeout 60 java -cp "$stock_h2" org.h2.tools.RunScript -url "$h2_url" -user sa -script "$schema" ||
    fail "stock H2 could not create the test database"
timeout 60 java -cp "$stock_h2" org.h2.tools.Shell -url "$h2_url" -user sa -sql "INSERT INTO kubernetes_cluster (uuid, name, state, created, cluster_type) VALUES ('u-1', 'stuck', 'Scaling', NOW(), 'CloudManaged')" >/dev/null ||
    fail "stock H2 could not insert a cluster"
before="$(sha256sum "$work"/cloud.mv.db)"
out="$(timeout 120 java -jar "$cli" scan --jdbc-url "$h2_url" --user sa --password-env CKS_NO_PASSWORD 2>&1)" && rc=0 || rc=$?
[ $rc -eq 2 ] || fail "scan with an unset --password-env exited $rc: $out"
out="$(CKS_EMPTY_PASSWORD= timeout 120 java -jar "$cli" scan --jdbc-url "$h2_url" --user sa --password-env CKS_EMPTY_PASSWORD 2>&1)" ||
    fail "scan of a file stock H2 wrote: $out"
# No version row: the newest table (4.23), which fails a scale back to Running.
grep -q 'stuck: Scaling -> Running' <<< "$out" || fail "scan of a file stock H2 wrote printed: $out"
[ "$(sha256sum "$work"/cloud.mv.db)" = "$before" ] || fail "a dry-run scan changed the H2 file"
[ -z "$(ls "$work" | grep -v '^cloud.mv.db$')" ] || fail "a dry-run scan left files beside the database: $(ls "$work")"
out="$(timeout 120 java -jar "$cli" scan --jdbc-url "jdbc:h2:file:$work/missing;MODE=MySQL" 2>&1)" && rc=0 || rc=$?
[ $rc -eq 1 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && grep -q 'no such database' <<< "$out" ||
    fail "scan of a missing H2 database (exit $rc): $out"
! ls "$work"/missing* >/dev/null 2>&1 || fail "scan of a missing H2 database created one: $(ls "$work")"
out="$(timeout 120 java -jar "$cli" scan --jdbc-url "$h2_url;NO_SUCH_SETTING=1" 2>&1)" && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q 'Unsupported connection setting "NO_SUCH_SETTING"' <<< "$out" ||
    fail "H2's own messages do not read in the tool (exit $rc): $out"
echo "check-artifacts: $(basename "$cli"): stock H2 $h2_version reads and writes the same files, its messages read; read-only scans change and create none"

# A libcks_state.so planted on java.library.path and in the working folder (LD_LIBRARY_PATH with an
# empty entry, which means the current folder) never runs: its constructor would write a marker.
mkdir -p "$work/planted" "$work/tmp"
printf '#include <stdio.h>\n__attribute__((constructor)) static void planted(void) { FILE *f = fopen(MARKER, "w"); if (f) fclose(f); }\n' \
    > "$work/planted/planted.c"
cc -shared -fPIC -DMARKER="\"$work/planted-ran\"" -o "$work/planted/libcks_state.so" "$work/planted/planted.c" ||
    fail "cc could not build the planted library"
cli_path="$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")"
out="$(cd "$work/planted" && LD_LIBRARY_PATH=: timeout 120 java -Djava.library.path="$work/planted" \
    -Djava.io.tmpdir="$work/tmp" -jar "$cli_path" --version 2>&1)" || fail "java -jar $(basename "$cli") --version beside a planted library: $out"
[ ! -e "$work/planted-ran" ] || fail "$(basename "$cli") loaded the libcks_state.so planted on java.library.path or in its working folder"
grep -qE "native ABI [0-9]+" <<< "$out" || fail "--version beside a planted library printed: $out"
LD_PRELOAD="$work/planted/libcks_state.so" /bin/true && [ -e "$work/planted-ran" ] || fail "the planted library's marker does not work"
echo "check-artifacts: $(basename "$cli"): a libcks_state.so planted on java.library.path and in the working folder never ran"
