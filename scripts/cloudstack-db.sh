#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# CloudStack's own database, built from CloudStack's own SQL files in CloudStack's own order, for
# the tests and benchmarks that must run on the schema a real management server has.
#
#   scripts/cloudstack-db.sh build [LINE]   build the `cloud` and `cloud_usage` databases of a
#                                           release line (cloudstack/lines.tsv; default main) on a
#                                           private MariaDB and keep their dump (cached; see below)
#   scripts/cloudstack-db.sh load [LINE]    load the dump into the server of scripts/mariadb.sh (same
#                                           CKS_MARIADB_PORT / CKS_MARIADB_DIR), replacing `cloud` and
#                                           `cloud_usage`; builds first when the cache is empty
#   scripts/cloudstack-db.sh dump [LINE]    print the path of the cached dump (building it if needed)
#
# Each line's database is built from that line's own source tarball, along the upgrade path that
# source's DatabaseUpgradeChecker walks to the line's version (cloudstack/lines.tsv, column database;
# the path read by scripts/cloudstack-upgrades.py); a version past
# the last upgrade (4.20.2.0: no upgrade writes it) is reached as CloudStack's DatabaseUpgradeChecker
# reaches it, by its NoopDbUpgrade: one more `version` row.
#
# What a developer database gets from `mvn -P developer -Ddeploydb` (developer/pom.xml, profile
# deploydb, which runs com.cloud.upgrade.DatabaseCreator):
#   1. DatabaseCreator.initDB: drop and create `cloud` and `cloud_usage`;
#   2. the SQL files create-schema.sql, create-schema-premium.sql, templates.sql (setup/db) and
#      developer/developer-prefill.sql: the 4.0.0 database;
#   3. DatabaseUpgradeChecker.check -> upgrade(): the procedures (META-INF/db/procedures), then
#      every DbUpgrade of the path from 4.0.0 to the code's version (its prepare scripts, its
#      performDataMigration, a `version` row, its cleanup scripts, the row marked Complete),
#      then the views (META-INF/db/views).
# Each SQL file is split into statements as CloudStack's ScriptRunner splits them (split_statements
# below) and sent to the server one by one with the management server's session sql_mode, stopping
# at the first failed statement. The schema changes some upgrades make in Java are done by hand
# here (java_steps), each naming its class; their data changes act on rows a fresh database has
# none of, and are listed there too.
#
# The result is cached per sha256 of the source tarball and of this script, in
# ${CKS_CACHE_DIR:-~/.cache/cks-state}/cloudstack-db/<tarball sha256>-<script sha256, 12>/.
# The tarballs are found by scripts/shared.sh (CKS_SHARED_DIR overrides).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
LINE="${2:-main}"
TARBALL="$(line_tarball "$LINE")" || exit 1
FINAL_VERSION="$(line_field "$LINE" database)" || exit 1
CACHE_ROOT="${CKS_CACHE_DIR:-${HOME:-/tmp}/.cache/cks-state}/cloudstack-db"
BUILD_PORT=3437
BUILD_DIR="$ROOT/.mariadb/cloudstack-db-$BUILD_PORT"
# The management server's session (utils/conf/db.properties, db.cloud.url.params).
SESSION="SET SESSION sql_mode='STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'; SET SESSION time_zone='+00:00';"
DELIM='@@cks-end@@'
export PATH="$PATH:/usr/sbin:/usr/local/sbin:/sbin"

log() { echo "cloudstack-db.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# The upgrade path from 4.0.0 to the line's version is read from the line's own source, as
# DatabaseUpgradeChecker walks it (scripts/cloudstack-upgrades.py): class, version it writes,
# prepare scripts, cleanup scripts (META-INF/db/, comma-separated, - for none).

# ScriptRunner.runScript (framework/db/.../ScriptRunner.java): a line whose trimmed text starts
# with --, // or # is skipped, as is a blank one; a line whose trimmed text ends with ';' ends the
# statement (its text up to the last ';'); any other line is added up to its first "--" (inside a
# string too). Lines are joined with a space. A statement is followed by a line holding $DELIM,
# the client's delimiter, so that the client sends each one whole (procedure bodies included).
split_statements() {
    awk -v delim="$DELIM" '
        {
            line = $0
            trimmed = line
            gsub(/^[\001-\040]+|[\001-\040]+$/, "", trimmed)
            if (trimmed == "" || substr(trimmed, 1, 2) == "--" || substr(trimmed, 1, 2) == "//" || substr(trimmed, 1, 1) == "#") {
                next
            }
            if (substr(trimmed, length(trimmed), 1) == ";") {
                last = 0
                for (i = length(line); i > 0; i--) { if (substr(line, i, 1) == ";") { last = i; break } }
                command = command substr(line, 1, last - 1) " "
                print command
                print delim
                command = ""
                next
            }
            i = index(line, "--")
            command = command (i ? substr(line, 1, i - 1) : line) " "
        }
    ' "$1"
}

client() {
    "$(command -v mariadb || command -v mysql)" --no-defaults --protocol=socket --socket="$SOCK" -uroot \
        --batch --skip-column-names "$@"
}

# Runs one SQL file as ScriptRunner would, in database $1 (the connection's default database).
run_file() {
    local db="$1" file="$2" out
    [ -f "$file" ] || die "missing SQL file: $file"
    if ! out=$( { echo "DELIMITER $DELIM"; echo "$SESSION"; echo "$DELIM"; split_statements "$file"; } |
        client --binary-mode "$db" 2>&1); then
        log "a statement of ${file#"$SRC"/} failed: $out"
        exit 1
    fi
}

sql() {
    client cloud -e "$SESSION $1"
}

# The upgrades' Java steps, written as SQL (java_steps; role_rules and role_copy with them).
# shellcheck source=cloudstack-db-java-steps.sh
source "$ROOT/scripts/cloudstack-db-java-steps.sh"

build() {
    local sha="$1" out="$2"
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"; CKS_MARIADB_PORT=$BUILD_PORT CKS_MARIADB_DIR=$BUILD_DIR "$ROOT/scripts/mariadb.sh" stop >/dev/null 2>&1 || true' EXIT
    log "extracting CloudStack's SQL files (tarball sha256 ${sha:0:12})"
    tar -xzf "$TARBALL" -C "$WORK" cloudstack/setup/db cloudstack/developer/developer-prefill.sql \
        cloudstack/engine/schema/src/main/resources/META-INF/db cloudstack/engine/schema/src/main/java/com/cloud/upgrade
    SRC="$WORK/cloudstack"
    META="$SRC/engine/schema/src/main/resources/META-INF/db"
    local meta="$META"
    CKS_MARIADB_PORT=$BUILD_PORT CKS_MARIADB_DIR=$BUILD_DIR "$ROOT/scripts/mariadb.sh" stop >/dev/null 2>&1 || true
    CKS_MARIADB_PORT=$BUILD_PORT CKS_MARIADB_DIR=$BUILD_DIR "$ROOT/scripts/mariadb.sh" start
    SOCK="/tmp/cks-mariadb-$BUILD_PORT.sock"
    local started=$SECONDS
    # DatabaseCreator.initDB, for --database=cloud,usage.
    client -e 'DROP DATABASE IF EXISTS `cloud`; CREATE DATABASE `cloud`;
        DROP DATABASE IF EXISTS `cloud_usage`; CREATE DATABASE `cloud_usage`;'
    local f
    for f in setup/db/create-schema.sql setup/db/create-schema-premium.sql setup/db/templates.sql \
        developer/developer-prefill.sql; do
        log "running $f"
        run_file cloud "$SRC/$f"
    done
    [ "$(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1")" = 4.0.0 ] ||
        die "create-schema.sql did not leave version 4.0.0"
    log "running the procedures"
    for f in $(cd "$meta/procedures" && LC_ALL=C ls); do
        run_file cloud "$meta/procedures/$f"
    done
    local class version prepare cleanup n=0 upgrades
    upgrades="$(python3 "$ROOT/scripts/cloudstack-upgrades.py" "$SRC" "$FINAL_VERSION")" ||
        die "cannot read the upgrade path of line $LINE's source"
    while read -r class version prepare cleanup; do
        [ -n "$class" ] || continue
        n=$((n + 1))
        log "upgrade $n: $class -> $version"
        if [ "$prepare" != - ]; then
            for f in ${prepare//,/ }; do run_file cloud "$meta/$f"; done
        fi
        java_steps "$class"
        sql "INSERT INTO version (version, updated, step) VALUES ('$version', UTC_TIMESTAMP(), 'Upgrade')"
        if [ "$cleanup" != - ]; then
            for f in ${cleanup//,/ }; do run_file cloud "$meta/$f"; done
        fi
        sql "UPDATE version SET step = 'Complete', updated = UTC_TIMESTAMP() WHERE version = '$version'"
    done <<<"$upgrades"
    if [ "$(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1")" != "$FINAL_VERSION" ]; then
        # DatabaseUpgradeChecker.calculateUpgradePath: no upgrade writes this version, a NoopDbUpgrade does.
        log "NoopDbUpgrade -> $FINAL_VERSION"
        sql "INSERT INTO version (version, updated, step) VALUES ('$FINAL_VERSION', UTC_TIMESTAMP(), 'Upgrade')"
        sql "UPDATE version SET step = 'Complete', updated = UTC_TIMESTAMP() WHERE version = '$FINAL_VERSION'"
    fi
    log "running the views"
    for f in $(cd "$meta/views" && LC_ALL=C ls); do
        run_file cloud "$meta/views/$f"
    done
    [ "$(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1")" = "$FINAL_VERSION" ] ||
        die "the upgrades did not end at $FINAL_VERSION"
    local tables views
    tables=$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cloud' AND TABLE_TYPE = 'BASE TABLE'")
    views=$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cloud' AND TABLE_TYPE = 'VIEW'")
    log "built line $LINE, version $FINAL_VERSION: $tables tables, $views views in cloud, $n upgrades, $((SECONDS - started)) s"
    mkdir -p "$out.tmp"
    "$(command -v mariadb-dump || command -v mysqldump)" --no-defaults --protocol=socket --socket="$SOCK" -uroot \
        --skip-dump-date --routines --triggers --single-transaction --databases cloud cloud_usage |
        gzip -n >"$out.tmp/cloudstack.sql.gz"
    printf 'version\t%s\ntables\t%s\nviews\t%s\nupgrades\t%s\ntarball_sha256\t%s\n' \
        "$FINAL_VERSION" "$tables" "$views" "$n" "$sha" >"$out.tmp/manifest.tsv"
    rm -rf "$out"
    mv "$out.tmp" "$out"
    # Builds of an older script for the same tarball are stale.
    find "$(dirname "$out")" -mindepth 1 -maxdepth 1 -type d -name "$sha-*" ! -name "$(basename "$out")" -exec rm -rf {} +
}

cache_dir() {
    local tar_sha script_sha
    tar_sha="$(tarball_sha256 "$TARBALL")" || exit 1
    script_sha=$(cat "${BASH_SOURCE[0]}" "$ROOT/scripts/cloudstack-db-java-steps.sh" "$ROOT/scripts/cloudstack-upgrades.py" |
        sha256sum | cut -c1-12)
    echo "$CACHE_ROOT/$tar_sha-$script_sha"
}

ensure_built() {
    local dir
    dir="$(cache_dir)" || exit 1
    if [ ! -f "$dir/cloudstack.sql.gz" ]; then
        (build "$(basename "$dir" | cut -d- -f1)" "$dir") >&2
    fi
    echo "$dir/cloudstack.sql.gz"
}

load() {
    local dump port
    dump="$(ensure_built)" || exit 1
    port="${CKS_MARIADB_PORT:-3407}"
    SOCK="/tmp/cks-mariadb-$port.sock"
    [ -S "$SOCK" ] || die "no server on $SOCK: run scripts/mariadb.sh start first"
    local started=$SECONDS
    client -e 'DROP DATABASE IF EXISTS `cloud`; DROP DATABASE IF EXISTS `cloud_usage`;'
    gunzip -c "$dump" | client
    log "loaded CloudStack $(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1") (line $LINE) into the server on port $port ($((SECONDS - started)) s)"
}

case "${1:-}" in
    build) ensure_built >/dev/null ;;
    load) load ;;
    dump) ensure_built ;;
    *) die "usage: $0 build|load|dump [LINE]" ;;
esac
