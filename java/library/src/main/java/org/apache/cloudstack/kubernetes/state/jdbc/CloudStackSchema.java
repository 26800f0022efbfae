// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;

/**
 * The schema cks-state needs of CloudStack's database: the fenced mode's columns, which come and go with
 * {@link #migrateUp} / {@link #migrateDown} ({@code fenced-up.sql} + the dialect's trigger,
 * {@code fenced-down.sql}), and the checks of a database before use ({@link #requireMode},
 * {@link #requireScannerSchema}). The same files run on MariaDB / MySQL and on H2 in MySQL mode
 * ({@code MODE=MySQL;DATABASE_TO_LOWER=TRUE}). CloudStack's own tables are CloudStack's: the library
 * never creates them (the test kit's {@code StandInSchema} does, for a database that is not CloudStack's).
 */
public final class CloudStackSchema {
    private CloudStackSchema() {
    }

    /** The statements of one of this package's SQL resources, comments removed, without the ';'. */
    public static List<String> statements(String resource) {
        String text;
        try (InputStream in = CloudStackSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("resource not found next to CloudStackSchema: " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\r?\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return Collections.unmodifiableList(out);
    }

    // ---- the fenced mode's columns on kubernetes_cluster (state_version, op_owner_msid,
    // op_owner_runid, op_job_id) and the trigger that bumps the version on an older server's blind
    // state write: reversible migrations and detection of the mode from the schema.

    /** The fence columns, in migration order. */
    public static final List<String> FENCE_COLUMNS = FenceColumnsSql.ALL;
    /** The same, comma-separated (a constant, for annotations and help texts). */
    public static final String FENCE_COLUMN_NAMES = FenceColumnsSql.LIST;
    public static final String FENCED_UP_RESOURCE = "fenced-up.sql";
    public static final String FENCED_DOWN_RESOURCE = "fenced-down.sql";
    public static final String FENCED_TRIGGER_MARIADB_RESOURCE = "fenced-trigger-mariadb.sql";
    public static final String FENCED_TRIGGER_H2_RESOURCE = "fenced-trigger-h2.sql";

    /** Which of the fence columns the schema holds. */
    public enum FenceColumns { NONE, ALL, PARTIAL }

    /** Which fence columns {@code kubernetes_cluster} has. */
    public static FenceColumns fenceColumns(Connection c) throws SQLException {
        List<String> present = present(c);
        if (present.isEmpty()) {
            return FenceColumns.NONE;
        }
        return present.size() == FENCE_COLUMNS.size() ? FenceColumns.ALL : FenceColumns.PARTIAL;
    }

    /**
     * Adds the missing columns and (re)creates the trigger, as the connection's own account:
     * {@link FencedMigration#migrateUp}, all or nothing.
     */
    public static void migrateUp(Connection c) throws SQLException {
        FencedMigration.migrateUp(c, null);
    }

    /** The statements {@link #migrateUp} runs on this schema now, without running them (a dry run). */
    public static List<String> migrationUp(Connection c) throws SQLException {
        return FencedMigration.up(c, null);
    }

    /** Drops the trigger and the columns (whatever of them exists); every row and its state stay. */
    public static void migrateDown(Connection c) throws SQLException {
        FencedMigration.migrateDown(c);
    }

    /** The statements {@link #migrateDown} runs on this schema now, without running them (a dry run). */
    public static List<String> migrationDown(Connection c) throws SQLException {
        return FencedMigration.down(c);
    }

    /** The operator's command that adds the fence columns and the trigger (docs/fenced-mode.md). */
    public static final String MIGRATE_COMMAND = "cks-state schema --migrate fenced --apply";

    /** The name of the rolling-upgrade trigger the fenced migration creates. */
    public static final String VERSION_TRIGGER = "trg_kubernetes_cluster__state_version";

    /** True when the fenced migration's trigger is on {@code kubernetes_cluster}. */
    public static boolean hasVersionTrigger(Connection c) throws SQLException {
        String sql = DatabaseClock.isH2(c)
                ? "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TRIGGERS WHERE LOWER(TRIGGER_NAME) = ?"
                : "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, VERSION_TRIGGER);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        } finally {
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }

    /**
     * Checks that this is a CloudStack database the status scanner can read: the tables it reads
     * exist and {@code kubernetes_cluster} has {@code cluster_type} (CloudStack 4.19 and later).
     * Reads metadata only.
     *
     * @throws IllegalStateException naming what is missing
     */
    public static void requireScannerSchema(Connection c) throws SQLException {
        for (String table : List.of("kubernetes_cluster", "async_job")) {
            if (!tableExists(c, table)) {
                throw new IllegalStateException("this database has no " + table + " table: it is not a CloudStack"
                        + " database (the management server's is usually named 'cloud')");
            }
        }
        if (!TableColumns.of(c, "kubernetes_cluster").contains("cluster_type")) {
            throw new IllegalStateException("kubernetes_cluster has no cluster_type column: the schema is older than"
                    + " CloudStack 4.19, which the status scanner's rules need (upgrade CloudStack first)");
        }
    }

    /** True when {@code table} exists in the connection's database (metadata: no failing probe query). */
    public static boolean tableExists(Connection c, String table) throws SQLException {
        for (String name : new String[] {table, table.toUpperCase(Locale.ROOT)}) {
            try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), null, name, null)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The mode to run in: {@code requested} after checking the schema. FENCED needs the fence columns
     * and their trigger: without them it is an error that says how to migrate (a schema with some of
     * them, a migration cut short, too); COMPAT runs on either schema (the trigger keeps a migrated
     * schema's versions right for fenced servers during a rolling upgrade).
     */
    public static StateMode requireMode(Connection c, StateMode requested) throws SQLException {
        if (requested == null) {
            throw new IllegalArgumentException("requested mode is null");
        }
        if (requested == StateMode.COMPAT) {
            return StateMode.COMPAT;
        }
        return switch (FencedMigration.stage(c)) {
            case FENCED -> StateMode.FENCED;
            case PARTIAL -> throw partial(c);
            case COMPAT -> throw new IllegalStateException(StateMode.CONFIG_KEY + " is 'fenced' but kubernetes_cluster has none of"
                        + " the columns " + FENCE_COLUMNS + ": run the migration first (" + MIGRATE_COMMAND + "; or "
                        + FENCED_UP_RESOURCE + " and " + FENCED_TRIGGER_MARIADB_RESOURCE + "), or configure 'compat'");
        };
    }

    /** {@link #requireMode(Connection, StateMode)} for a configuration value (null/blank: compat). */
    public static StateMode requireMode(ConnectionSource source, String configured) {
        StateMode requested = StateMode.fromConfig(configured);
        try (Connection c = source.open()) {
            return requireMode(c, requested);
        } catch (SQLException e) {
            throw new StateStoreException("checking the schema for " + StateMode.CONFIG_KEY + "=" + requested.label(), e);
        }
    }

    private static IllegalStateException partial(Connection c) throws SQLException {
        return new IllegalStateException("kubernetes_cluster has " + FencedMigration.describe(c) + ": a fenced migration"
                + " was cut short; finish it (" + MIGRATE_COMMAND + ") or undo it (cks-state schema --migrate compat --apply)");
    }

    private static List<String> present(Connection c) throws SQLException {
        Set<String> columns = TableColumns.of(c, "kubernetes_cluster");
        return FENCE_COLUMNS.stream().filter(columns::contains).toList();
    }
}
