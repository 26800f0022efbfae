#!/usr/bin/env bash
# Checks the two artifacts (issue 14): what a management server adds to its class path and what
# an operator runs.
# - the library jar holds the binding, the JDBC side and native/, nothing of the tool (cli,
#   simulate, scan) and no third-party class; its runtime dependencies are log4j-api alone;
# - the CLI jar relocates every dependency under ...state.shaded, and runs (table; a short
#   simulate on its embedded H2).
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

unshaded="$(entries "$cli" | grep -E '\.class$' | grep -vE "^($PKG/|META-INF/versions/[0-9]+/$PKG/)" || true)"
[ -z "$unshaded" ] || fail "$(basename "$cli") has classes outside $PKG (not relocated): $(echo "$unshaded" | head -5 | tr '\n' ' ')"
cli_entries="$(entries "$cli")"
for relocated in picocli h2 mariadb mysql jasypt log4j; do
    grep -q "^$PKG/shaded/$relocated/" <<<"$cli_entries" || fail "$(basename "$cli") lacks the relocated $relocated"
done
out="$(timeout 120 java -jar "$cli" table --format tsv 2>&1)" || fail "java -jar $(basename "$cli") table: $out"
[ "$(echo "$out" | head -n1)" = $'Created\tStartRequested\tStarting' ] || fail "table printed: $(echo "$out" | head -3)"
out="$(timeout 300 java -jar "$cli" simulate --operations 60 --seed 7 2>&1)" || fail "java -jar $(basename "$cli") simulate: $out"
echo "$out" | grep -qE '^ *double_entries +0$' || fail "simulate on the shaded H2 printed: $(echo "$out" | tail -5)"
if echo "$out" | grep -qiE 'provider|log4j'; then fail "the CLI jar printed a logging notice: $(echo "$out" | grep -iE 'provider|log4j' | head -2)"; fi
echo "check-artifacts: $(basename "$cli"): every dependency relocated under $PKG/shaded; table and simulate run"
