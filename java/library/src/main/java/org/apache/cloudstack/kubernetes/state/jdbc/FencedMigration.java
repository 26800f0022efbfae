// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;

/**
 * The fenced mode's schema: the four fence columns of {@code kubernetes_cluster} and the trigger that
 * versions an older server's blind state write. A schema is fenced only with both. The migration up
 * is all or nothing: the trigger's privileges are tried on a scratch table before anything changes,
 * the columns are added by one statement, and if the trigger then fails the columns are dropped
 * again. A migration cut short earlier (some columns, or the columns without the trigger) is
 * completed by the migration up, or undone by the migration down (one statement too). On MariaDB and
 * MySQL the trigger's definer is named: CloudStack's own account, so that dropping the account that
 * ran the migration never breaks CloudStack's writes (error 1449).
 */
public final class FencedMigration {
    /** fenced-up.sql's clause of one column: {@code ADD COLUMN `name` definition}. */
    private static final Pattern ADD_COLUMN = Pattern.compile("ADD COLUMN `(\\w+)` [^\\n]*?(?=,\\s*\\n|$)");

    private FencedMigration() {
    }

    /** Where a schema stands: no fence at all, the whole fence, or a migration cut short. */
    public enum Stage { COMPAT, FENCED, PARTIAL }

    /** A migration that would not finish: nothing was changed; the message says why and who can fix it. */
    public static final class Refused extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The stage of the schema: its fence columns and the trigger. */
    public static Stage stage(Connection c) throws SQLException {
        CloudStackSchema.FenceColumns columns = CloudStackSchema.fenceColumns(c);
        boolean trigger = CloudStackSchema.hasVersionTrigger(c);
        if (columns == CloudStackSchema.FenceColumns.ALL && trigger) {
            return Stage.FENCED;
        }
        return columns == CloudStackSchema.FenceColumns.NONE && !trigger ? Stage.COMPAT : Stage.PARTIAL;
    }

    /** What a partial schema has, for messages ("the columns [state_version] of 4, no trigger"). */
    public static String describe(Connection c) throws SQLException {
        List<String> have = missingOrPresent(c, true);
        return (have.isEmpty() ? "none of the fence columns" : "the fence columns " + have + " of "
                + CloudStackSchema.FENCE_COLUMNS.size()) + ", " + (CloudStackSchema.hasVersionTrigger(c) ? "the trigger"
                : "no trigger " + CloudStackSchema.VERSION_TRIGGER);
    }

    /** The account a trigger created on {@code c} would run as by default: the connection's own (CURRENT_USER()). */
    public static String currentAccount(Connection c) throws SQLException {
        return TriggerAccess.currentAccount(c);
    }

    /** {@code user@host} (quoted or not) as MySQL writes an account, {@code 'user'@'host'}; IAE for another form. */
    public static String account(String text) {
        return TriggerAccess.account(text);
    }

    /** The statements the migration up runs on this schema now (a dry run): the missing columns, then the trigger. */
    public static List<String> up(Connection c, String definer) throws SQLException {
        List<String> statements = new ArrayList<>();
        List<String> missing = missingOrPresent(c, false);
        if (!missing.isEmpty()) {
            List<String> adds = new ArrayList<>();
            Matcher clause = ADD_COLUMN.matcher(String.join("\n", CloudStackSchema.statements(CloudStackSchema.FENCED_UP_RESOURCE)));
            while (clause.find()) {
                if (missing.contains(clause.group(1))) {
                    adds.add(clause.group());
                }
            }
            statements.add(addColumns(c, adds));
        }
        statements.addAll(trigger(c, definerFor(c, definer)));
        return List.copyOf(statements);
    }

    /** The trigger's definer: none on H2; {@code definer}, else the connection's own account. */
    private static String definerFor(Connection c, String definer) throws SQLException {
        return DatabaseClock.isH2(c) ? null : definer != null ? account(definer) : currentAccount(c);
    }

    /** The statements the migration down runs on this schema now: the trigger, then whatever columns exist, in one statement. */
    public static List<String> down(Connection c) throws SQLException {
        List<String> statements = new ArrayList<>();
        // Only an existing trigger: with the binary log on, even DROP TRIGGER IF EXISTS needs SUPER.
        if (CloudStackSchema.hasVersionTrigger(c)) {
            statements.add("DROP TRIGGER `" + CloudStackSchema.VERSION_TRIGGER + "`");
        }
        List<String> present = missingOrPresent(c, true);
        if (!present.isEmpty()) {
            statements.add(dropColumns(c, present));
        }
        return List.copyOf(statements);
    }

    /**
     * Adds the missing columns and (re)creates the trigger as {@code definer} (MariaDB and MySQL; null:
     * the connection's own account), all or nothing: the trigger's privileges are tried first on a
     * scratch table; if the trigger still fails, the columns this run added are dropped again.
     *
     * @throws Refused when it would not finish, nothing changed
     */
    public static void migrateUp(Connection c, String definer) throws SQLException {
        String account = definerFor(c, definer);
        List<String> statements = up(c, account);
        if (statements.isEmpty()) {
            return; // fenced already, with this definer
        }
        if (account != null) {
            TriggerAccess.boundLockWaits(c);
            TriggerAccess.probe(c, account);
        }
        List<String> added = missingOrPresent(c, false);
        boolean oldTriggerDropped = false;
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                try {
                    st.execute(sql);
                    oldTriggerDropped |= sql.startsWith("DROP TRIGGER");
                } catch (SQLException e) {
                    throw undoUp(st, c, sql, e, sql.startsWith("ALTER") ? List.of() : added, oldTriggerDropped);
                }
            }
        }
        commit(c);
    }

    /** After a failed step of the migration up: the columns it added dropped again, and what the schema is left as. */
    private static Refused undoUp(Statement st, Connection c, String sql, SQLException e, List<String> added,
            boolean oldTriggerDropped) throws SQLException {
        String failed = "the fenced migration failed at `" + sql.lines().findFirst().orElse(sql) + "` (" + e.getMessage() + ")";
        try {
            if (!added.isEmpty()) {
                st.execute(dropColumns(c, added));
            }
        } catch (SQLException drop) {
            e.addSuppressed(drop);
            return new Refused(failed + ", and the columns it added could not be dropped again (" + drop.getMessage()
                    + "): the schema is partial; finish it (cks-state schema --migrate fenced --apply) or undo it"
                    + " (cks-state schema --migrate compat --apply)", e);
        }
        return new Refused(failed + (oldTriggerDropped ? "; the old trigger was dropped before: the schema has the columns"
                + " without the trigger; run the migration again" : added.isEmpty() ? "; nothing changed"
                : "; the columns it added were dropped again: nothing changed"), e);
    }

    /**
     * Drops the trigger, then whatever fence columns exist (one statement); every row and its state
     * stay. The trigger goes first: an account that may not drop it changes nothing.
     *
     * @throws Refused when the trigger cannot be dropped, nothing changed
     */
    public static void migrateDown(Connection c) throws SQLException {
        if (!DatabaseClock.isH2(c)) {
            TriggerAccess.boundLockWaits(c);
            if (!TriggerAccess.seesTriggers(c, "kubernetes_cluster")) {
                throw new Refused("the migration to compat changed nothing: " + currentAccount(c) + " lacks the TRIGGER"
                        + " privilege on kubernetes_cluster, so the server hides its triggers from it, and dropping the"
                        + " columns under the trigger would break every UPDATE of the table; grant it TRIGGER, or run the"
                        + " migration as a database administrator", null);
            }
        }
        boolean triggerDropped = false;
        try (Statement st = c.createStatement()) {
            for (String sql : down(c)) {
                try {
                    st.execute(sql);
                    triggerDropped |= sql.startsWith("DROP TRIGGER");
                } catch (SQLException e) {
                    String account = DatabaseClock.isH2(c) ? "this account" : currentAccount(c);
                    throw new Refused(triggerDropped ? "the trigger was dropped, but dropping the fence columns failed ("
                            + e.getMessage() + "): the schema has the columns without the trigger; run the migration to"
                            + " compat again, or the fenced one to restore it"
                            : "the migration to compat would not finish, so it changed nothing: "
                            + TriggerAccess.advice(e, account, "dropping"), e);
                }
            }
        }
        commit(c);
    }

    /**
     * The trigger's statements now: none when it is there with this definer (H2: when it is there);
     * else its creation, replacing one of another definer in one statement on MariaDB (MySQL has no
     * CREATE OR REPLACE TRIGGER: a drop, then the creation).
     */
    private static List<String> trigger(Connection c, String definer) throws SQLException {
        String create = CloudStackSchema.statements(DatabaseClock.isH2(c) ? CloudStackSchema.FENCED_TRIGGER_H2_RESOURCE
                : CloudStackSchema.FENCED_TRIGGER_MARIADB_RESOURCE).stream()
                .filter(sql -> sql.toUpperCase(Locale.ROOT).startsWith("CREATE TRIGGER")).findFirst().orElseThrow();
        if (definer == null) {
            return CloudStackSchema.hasVersionTrigger(c) ? List.of() : List.of(create);
        }
        String named = "CREATE DEFINER=" + definer + create.substring("CREATE".length());
        String existing = TriggerAccess.definerOf(c, CloudStackSchema.VERSION_TRIGGER);
        if (existing == null) {
            return List.of(named);
        }
        if (existing.equals(definer)) {
            return List.of();
        }
        return TriggerAccess.isMariaDb(c) ? List.of("CREATE OR REPLACE DEFINER=" + definer + create.substring("CREATE".length()))
                : List.of("DROP TRIGGER `" + CloudStackSchema.VERSION_TRIGGER + "`", named);
    }

    /** One statement adding the columns of {@code clauses} ({@code ADD COLUMN `name` definition} each). */
    private static String addColumns(Connection c, List<String> clauses) throws SQLException {
        if (DatabaseClock.isH2(c)) {
            // H2 adds several columns in one statement as a list, ADD (name definition, ...).
            return "ALTER TABLE `kubernetes_cluster` ADD (" + String.join(", ", clauses.stream()
                    .map(clause -> clause.replaceFirst("^ADD COLUMN ", "")).toList()) + ")";
        }
        return "ALTER TABLE `kubernetes_cluster` " + String.join(", ", clauses);
    }

    /** One statement dropping {@code columns}. */
    private static String dropColumns(Connection c, List<String> columns) throws SQLException {
        List<String> quoted = columns.stream().map(col -> "`" + col + "`").toList();
        if (DatabaseClock.isH2(c)) {
            return "ALTER TABLE `kubernetes_cluster` DROP COLUMN " + String.join(", ", quoted);
        }
        return "ALTER TABLE `kubernetes_cluster` " + String.join(", ", quoted.stream().map(col -> "DROP COLUMN " + col).toList());
    }

    private static List<String> missingOrPresent(Connection c, boolean present) throws SQLException {
        java.util.Set<String> columns = TableColumns.of(c, "kubernetes_cluster");
        return CloudStackSchema.FENCE_COLUMNS.stream().filter(col -> columns.contains(col) == present).toList();
    }

    private static void commit(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
