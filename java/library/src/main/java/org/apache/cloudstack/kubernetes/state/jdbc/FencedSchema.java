package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Locale;

/**
 * The fenced mode's columns on {@code kubernetes_cluster} ({@code state_version},
 * {@code op_owner_msid}, {@code op_owner_runid}, {@code op_job_id}) and the trigger that bumps the
 * version on an older server's blind state write: reversible migrations ({@code fenced-up.sql} +
 * the dialect's trigger, {@code fenced-down.sql}) and detection of the mode from the schema.
 */
public final class FencedSchema {
    /** The fence columns, in migration order. */
    public static final List<String> COLUMNS = List.of("state_version", "op_owner_msid", "op_owner_runid", "op_job_id");
    public static final String UP_RESOURCE = "fenced-up.sql";
    public static final String DOWN_RESOURCE = "fenced-down.sql";
    public static final String TRIGGER_MARIADB_RESOURCE = "fenced-trigger-mariadb.sql";
    public static final String TRIGGER_H2_RESOURCE = "fenced-trigger-h2.sql";

    /** What the schema holds. */
    public enum Columns { NONE, ALL, PARTIAL }

    private FencedSchema() {
    }

    /** Which fence columns {@code kubernetes_cluster} has. */
    public static Columns columns(Connection c) throws SQLException {
        List<String> present = present(c);
        if (present.isEmpty()) {
            return Columns.NONE;
        }
        return present.size() == COLUMNS.size() ? Columns.ALL : Columns.PARTIAL;
    }

    /**
     * Adds the columns (unless all are there) and (re)creates the trigger. Idempotent; a schema
     * with only some of the columns is an error (a half-run migration: finish or undo it by hand).
     */
    public static void migrateUp(Connection c) throws SQLException {
        Columns now = columns(c);
        if (now == Columns.PARTIAL) {
            throw partial(c);
        }
        List<String> statements = new ArrayList<>();
        if (now == Columns.NONE) {
            statements.addAll(CloudStackSchema.statements(UP_RESOURCE));
        }
        statements.addAll(CloudStackSchema.statements(isH2(c) ? TRIGGER_H2_RESOURCE : TRIGGER_MARIADB_RESOURCE));
        run(c, statements);
    }

    /** Drops the trigger and the columns (whatever of them exists); every row and its state stay. */
    public static void migrateDown(Connection c) throws SQLException {
        List<String> have = present(c);
        List<String> statements = new ArrayList<>();
        for (String sql : CloudStackSchema.statements(DOWN_RESOURCE)) {
            String lower = sql.toLowerCase(Locale.ROOT);
            boolean dropsMissing = lower.contains("drop column") && have.stream().noneMatch(
                    col -> lower.contains("`" + col + "`"));
            if (!dropsMissing) {
                statements.add(sql);
            }
        }
        run(c, statements);
    }

    /**
     * The mode to run in: {@code requested} after checking the schema. FENCED without the columns
     * is an error that says how to migrate; COMPAT runs on either schema (the trigger keeps a
     * migrated schema's versions right for fenced servers during a rolling upgrade).
     */
    public static StateMode requireMode(Connection c, StateMode requested) throws SQLException {
        if (requested == null) {
            throw new IllegalArgumentException("requested mode is null");
        }
        if (requested == StateMode.COMPAT) {
            return StateMode.COMPAT;
        }
        switch (columns(c)) {
            case ALL:
                return StateMode.FENCED;
            case PARTIAL:
                throw partial(c);
            case NONE:
            default:
                throw new IllegalStateException(StateMode.CONFIG_KEY + " is 'fenced' but kubernetes_cluster has none of"
                        + " the columns " + COLUMNS + ": run the migration first (" + UP_RESOURCE + " and "
                        + TRIGGER_MARIADB_RESOURCE + ", or FencedSchema.migrateUp), or configure 'compat'");
        }
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
        return new IllegalStateException("kubernetes_cluster has only " + present(c) + " of the fenced columns " + COLUMNS
                + ": a migration was cut short; run " + DOWN_RESOURCE + " (or finish " + UP_RESOURCE + ") by hand");
    }

    private static List<String> present(Connection c) throws SQLException {
        Set<String> columns = TableColumns.of(c, "kubernetes_cluster");
        return COLUMNS.stream().filter(columns::contains).toList();
    }

    static boolean isH2(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("h2");
    }

    private static void run(Connection c, List<String> statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
