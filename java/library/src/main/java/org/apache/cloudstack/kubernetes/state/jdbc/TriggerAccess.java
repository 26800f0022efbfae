// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the fenced migration's trigger needs of the database accounts (MariaDB and MySQL): the
 * account that creates or drops it (TRIGGER; SUPER or log_bin_trust_function_creators where the
 * binary log is on; the right to name another definer), and the definer it runs as, which must
 * exist and may write the table. Each is tried on a scratch table before anything of CloudStack's
 * changes.
 */
final class TriggerAccess {
    /** The scratch table the privileges are tried on; dropped again at once. */
    static final String PROBE_TABLE = "cks_state_trigger_probe";
    private static final Pattern ACCOUNT = Pattern.compile("'?([^'\"@`\\\\\\s]+)'?@'?([^'\"@`\\\\\\s]+)'?");
    /** How long a DDL statement waits for another session's lock on the table before it gives up. */
    static final int LOCK_WAIT_SECONDS = 30;

    private TriggerAccess() {
    }

    /** {@code user@host} (quoted or not) as MySQL writes an account, {@code 'user'@'host'}; IAE for another form. */
    static String account(String text) {
        Matcher m = ACCOUNT.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("definer: '" + text + "' is not a database account (user@host, as"
                    + " 'cloud'@'localhost' or cloud@%)");
        }
        return "'" + m.group(1) + "'@'" + m.group(2) + "'";
    }

    /** The connection's own account (CURRENT_USER()), as {@link #account} writes it. */
    static String currentAccount(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT CURRENT_USER()")) {
            rs.next();
            return account(rs.getString(1));
        }
    }

    /** The trigger's definer as {@link #account} writes it, or null when there is no trigger (or it is H2's). */
    static String definerOf(Connection c, String trigger) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT DEFINER FROM information_schema.TRIGGERS"
                + " WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?")) {
            ps.setString(1, trigger);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? account(rs.getString(1)) : null;
            }
        }
    }

    /**
     * Whether the connection's account holds the TRIGGER privilege on the table (globally, on the
     * database or on the table): without it, information_schema hides the table's triggers, so "no
     * trigger" would mean nothing.
     */
    static boolean seesTriggers(Connection c, String table) throws SQLException {
        String grantee = currentAccount(c);
        try (PreparedStatement ps = c.prepareStatement("SELECT (SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES"
                + " WHERE GRANTEE = ? AND PRIVILEGE_TYPE = 'TRIGGER') + (SELECT COUNT(*) FROM"
                + " information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = ? AND TABLE_SCHEMA = DATABASE() AND PRIVILEGE_TYPE"
                + " = 'TRIGGER') + (SELECT COUNT(*) FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE = ? AND"
                + " TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND PRIVILEGE_TYPE = 'TRIGGER')")) {
            for (int i = 1; i <= 3; i++) {
                ps.setString(i, grantee);
            }
            ps.setString(4, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    /** Whether the server is MariaDB (which has CREATE OR REPLACE TRIGGER) rather than MySQL. */
    static boolean isMariaDb(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            return rs.next() && rs.getString(1).toLowerCase(java.util.Locale.ROOT).contains("mariadb");
        }
    }

    /** Bounds how long this session's DDL waits for a lock (a long transaction on the table): an error, never a hang. */
    static void boundLockWaits(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION lock_wait_timeout = " + LOCK_WAIT_SECONDS);
        }
    }

    /**
     * Creates a trigger of {@code definer} on a scratch table and makes it fire: the account's right
     * to create it, and the definer's existence and right to run it, tried before anything of
     * CloudStack's changes. A scratch table an earlier run left is dropped first.
     *
     * @throws FencedMigration.Refused naming what is missing
     */
    static void probe(Connection c, String definer) throws SQLException {
        try (Statement st = c.createStatement()) {
            SQLException failure = null;
            try {
                st.execute("DROP TABLE IF EXISTS `" + PROBE_TABLE + "`");
                st.execute("CREATE TABLE `" + PROBE_TABLE + "` (id int PRIMARY KEY)");
                st.execute("CREATE DEFINER=" + definer + " TRIGGER `" + PROBE_TABLE + "_t` BEFORE UPDATE ON `"
                        + PROBE_TABLE + "` FOR EACH ROW SET NEW.id = NEW.id");
                st.execute("INSERT INTO `" + PROBE_TABLE + "` (id) VALUES (1)");
                st.execute("UPDATE `" + PROBE_TABLE + "` SET id = 1 WHERE id = 1");
            } catch (SQLException e) {
                failure = e;
            }
            try {
                // The trigger goes with its table (DROP TRIGGER would need SUPER where the binary log is on).
                st.execute("DROP TABLE IF EXISTS `" + PROBE_TABLE + "`");
            } catch (SQLException e) {
                if (failure == null) {
                    throw new FencedMigration.Refused("the fenced migration changed nothing, but its scratch table `"
                            + PROBE_TABLE + "` could not be dropped (" + e.getMessage() + "): the account needs the DROP"
                            + " privilege on CloudStack's database", e);
                }
                failure.addSuppressed(e);
            }
            if (failure != null) {
                throw new FencedMigration.Refused("the fenced migration would not finish, so it changed nothing: "
                        + advice(failure, definer, "creating"), failure);
            }
        }
    }

    /** What is missing, in words an operator can take to the database administrator. */
    static String advice(SQLException e, String definer, String doing) {
        String base = doing + " the trigger as " + definer + " failed (" + e.getMessage() + ")";
        return switch (e.getErrorCode()) {
            case 1419 -> base + ": with the binary log on, " + doing + " a trigger needs the SUPER privilege, or the server"
                    + " setting log_bin_trust_function_creators=1; a database administrator can grant the one or set the"
                    + " other, or run this migration";
            case 1227 -> base + ": naming another account as the trigger's definer needs the SET USER (MariaDB) or"
                    + " SET_USER_ID (MySQL) privilege, or SUPER; run the migration as that account (--db-properties of"
                    + " CloudStack's db.properties), or as an administrator";
            case 1449 -> base + ": the definer is no account of this server; name CloudStack's own account as its grants"
                    + " name it (db.cloud.username of db.properties, and the host part of its grant, e.g. 'cloud'@'%')";
            case 1142, 1143, 1044 -> base + ": the account running the migration needs the CREATE, DROP, ALTER, INSERT,"
                    + " UPDATE and TRIGGER privileges on CloudStack's database, and the definer TRIGGER and UPDATE; a"
                    + " database administrator can grant them";
            case 1205 -> base + ": another session held the table for more than " + LOCK_WAIT_SECONDS + " s (a long"
                    + " transaction); run the migration again when it has ended";
            default -> base;
        };
    }
}
