# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/e2e-cloudstack.sh: a slot's database (its globals: SRC, RUN, LINE, BUILD, SOCK,
# CKS_MARIADB_PORT, CKS_CLOUDSTACK_WORK, DB_ROOT_PASSWORD, MVN, MVN_FLAGS; sql, build_key, log, die).
# shellcheck shell=bash

# ---- database: CloudStack's developer profile (deploydb, then deploydb-simulator) on the private server.
database() {
    "$ROOT/scripts/mariadb.sh" start >&2
    sql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '$DB_ROOT_PASSWORD';
            GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
    # The developer profile's db.properties.override: DatabaseCreator reads the last properties file it
    # is given, whole, so it is CloudStack's developer db.properties pointed at the slot's server.
    local profile dump
    # The override is a file of the shared tree: one slot at a time from here to the end of deploydb.
    exec 9>"$CKS_CLOUDSTACK_WORK/.deploydb.lock"
    flock -w 900 9 || die "the developer profile's lock was not free within 900 s"
    # deploydb is a Maven run of a minute or more, one slot after another: once per build, then its dump.
    dump="$CKS_CLOUDSTACK_WORK/.deploydb-$LINE-$BUILD-$(build_key).sql"
    if [ -s "$dump" ]; then
        log "database: the developer profile's databases of this build, loaded from $(basename "$dump")"
        sql < "$dump" || die "loading $dump failed"
        exec 9>&-
        return 0
    fi
    sed -E -e "s#^db\.(cloud|usage|simulator)\.host=.*#db.\1.host=127.0.0.1#" \
        -e "s#^db\.(cloud|usage|simulator)\.port=.*#db.\1.port=$CKS_MARIADB_PORT#" \
        "$SRC/utils/conf/db.properties" > "$SRC/utils/conf/db.properties.override"
    for profile in deploydb deploydb-simulator; do
        log "database: developer profile -D$profile"
        # DatabaseCreator prints the passwords it sets: kept out of the log.
        if ! (cd "$SRC" && MAVEN_OPTS="${MAVEN_OPTS:-} ${LEAN_JVM[*]}" $MVN "${MVN_FLAGS[@]}" -P developer -pl developer -D"$profile" \
                -Ddb.root.password="$DB_ROOT_PASSWORD" process-resources) 2>&1 \
                | sed -E 's/(password=)[^ ,]*/\1***/g' > "$RUN/deploydb-$profile.log"; then
            tail -30 "$RUN/deploydb-$profile.log" >&2
            die "-D$profile failed (log: $RUN/deploydb-$profile.log)"
        fi
        grep -q "BUILD SUCCESS" "$RUN/deploydb-$profile.log" || die "-D$profile failed (log: $RUN/deploydb-$profile.log)"
    done
    # The users DatabaseCreator made first (the dump's views name cloud@% their definer), then the databases.
    { for host in % localhost; do
          sql -e "SHOW CREATE USER 'cloud'@'$host'" | sed 's/$/;/'
          sql -e "SHOW GRANTS FOR 'cloud'@'$host'" | grep -v '^GRANT USAGE' | sed 's/$/;/'
      done
      mariadb-dump --no-defaults --protocol=socket --socket="$SOCK" -uroot --databases cloud cloud_usage simulator \
          --routines --triggers --events --skip-dump-date; } > "$dump.tmp" && mv "$dump.tmp" "$dump"
    exec 9>&-
}
