# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# The start check's management-server alert, sourced by scripts/package-test.sh (its helpers and settings):
# a package built for another release starts the server stock and raises one alert in CloudStack's own
# database (the throwaway MariaDB with CloudStack's schema, scripts/cloudstack-db.sh), once while nobody has
# archived it; without db.properties, or with a database that takes the connection and never answers, it
# starts stock all the same, in bounded time, and says why no alert was raised.

alert_rows() {
    "$MARIADB_CLIENT" -N -B -e "SELECT CONCAT_WS(' ', type, name, data_center_id, IFNULL(pod_id, 'null'), sent_count, archived) FROM alert
        WHERE subject LIKE 'Management server %started without cks-state: %built for CloudStack $RELEASE and CloudStack $NEXT is installed%'" \
        "${DB_ARGS[@]}"
}

test_alert() {
    local r url host port db user password started took stopped_db=""
    # The tool runs as the server's account (nobody here), which must reach the root: not under a 0700 folder.
    r="$(mktemp -d -p /var/lib cks-state-package-alert.XXXXXX)"
    chmod 0755 "$r"
    scratch_root "$r" "$RELEASE"
    ln -s "$(readlink -f "$(command -v java)")" "$r/usr/bin/java"
    export CKS_STATE_SERVER_USER=nobody
    mv "$r/usr/share/cloudstack-management/lib/cloudstack-$RELEASE.jar" "$r/usr/share/cloudstack-management/lib/cloudstack-$NEXT.jar"
    start_check "$r" "alert without db.properties"
    expect_status "$r" "stock: *built for CloudStack $RELEASE and CloudStack $NEXT is installed*" "alert without db.properties"
    grep -qF "no alert raised: $r/etc/cloudstack/management/db.properties is missing" "$TMP/start.err" \
        && log "ok: alert: none without db.properties, said so" || fail "alert without db.properties: $(cat "$TMP/start.err")"

    # A database that takes the connection and never answers (a hung server, a firewall's half-open port):
    # only the start check's own bound ends the wait.
    python3 -c 'import socket, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(120)' > "$TMP/silent.port" &
    local silent=$!
    for _ in $(seq 50); do [ -s "$TMP/silent.port" ] && break; sleep 0.1; done
    install -d -m 0755 "$r/etc/cloudstack/management"
    printf 'db.cloud.username=cloud\ndb.cloud.password=nowhere\ndb.cloud.host=127.0.0.1\ndb.cloud.port=%s\ndb.cloud.name=cloud\ndb.cloud.driver=jdbc:mysql\ndb.cloud.encryption.type=none\n' \
        "$(cat "$TMP/silent.port")" > "$r/etc/cloudstack/management/db.properties"
    started="$(date +%s)"
    CKS_STATE_ALERT_TIMEOUT=5 start_check "$r" "alert with a silent database"
    took=$(( $(date +%s) - started ))
    kill "$silent" 2>/dev/null || true; wait "$silent" 2>/dev/null || true
    expect_status "$r" "stock: *built for CloudStack $RELEASE and CloudStack $NEXT is installed*" "alert with a silent database"
    if grep -q "no alert raised: no answer in 5 s" "$TMP/start.err" && [ "$took" -le 12 ]; then
        log "ok: alert: a database that never answers, the server starts stock after $took s, saying why"
    else
        fail "alert with a silent database ($took s): $(cat "$TMP/start.err")"
    fi

    scripts_mariadb status >/dev/null 2>&1 || { scripts_mariadb start >/dev/null || die "MariaDB did not start"; stopped_db=1; }
    "$ROOT/scripts/cloudstack-db.sh" load >/dev/null || die "CloudStack's database did not load"
    url="$(scripts_mariadb url)"
    read -r host port db user password < <(mariadb_url_parts "$url") || die "the test server's URL did not parse"
    MARIADB_CLIENT="$(command -v mariadb || command -v mysql)"
    DB_ARGS=(-h "$host" -P "$port" -u "$user" "-p$password" "$db")
    "$MARIADB_CLIENT" -e "DELETE FROM alert WHERE subject LIKE 'Management server %started without cks-state: %'" "${DB_ARGS[@]}"
    printf 'db.cloud.username=%s\ndb.cloud.password=%s\ndb.cloud.host=%s\ndb.cloud.port=%s\ndb.cloud.name=%s\ndb.cloud.driver=jdbc:mysql\ndb.cloud.encryption.type=none\n' \
        "$user" "$password" "$host" "$port" "$db" > "$r/etc/cloudstack/management/db.properties"
    start_check "$r" "alert raised"
    expect_status "$r" "stock: *built for CloudStack $RELEASE and CloudStack $NEXT is installed*" "alert raised"
    [ "$(alert_rows)" = "14 ALERT.MANAGEMENT 0 null 1 0" ] && grep -q "raised management-server alert [0-9]" "$TMP/start.err" \
        && log "ok: alert: raised in CloudStack's alert list: $(grep -m1 'raised management-server alert' "$TMP/start.err")" \
        || fail "alert raised: rows '$(alert_rows)', said: $(cat "$TMP/start.err")"
    start_check "$r" "alert raised again"
    [ "$(alert_rows)" = "14 ALERT.MANAGEMENT 0 null 1 0" ] && grep -q "left as it is" "$TMP/start.err" \
        && log "ok: alert: a second start leaves the unarchived alert as it is" \
        || fail "alert raised again: rows '$(alert_rows)', said: $(cat "$TMP/start.err")"
    # Never as root unless told: without the server's account, no alert.
    "$MARIADB_CLIENT" -e "DELETE FROM alert WHERE subject LIKE 'Management server %started without cks-state: %'" "${DB_ARGS[@]}"
    CKS_STATE_SERVER_USER=no-such-user start_check "$r" "alert without the server's account"
    [ -z "$(alert_rows)" ] && grep -qF "no alert raised: no user no-such-user" "$TMP/start.err" \
        && log "ok: alert: none without the server's account, said so" \
        || fail "alert without the server's account: rows '$(alert_rows)', said: $(cat "$TMP/start.err")"
    "$MARIADB_CLIENT" -e "DELETE FROM alert WHERE subject LIKE 'Management server %started without cks-state: %'" "${DB_ARGS[@]}"
    unset CKS_STATE_SERVER_USER
    rm -rf "$r"
    [ -z "$stopped_db" ] || scripts_mariadb stop >/dev/null
}

scripts_mariadb() { "$ROOT/scripts/mariadb.sh" "$@"; }
