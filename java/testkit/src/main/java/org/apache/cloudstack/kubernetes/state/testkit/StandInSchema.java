// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The tables of a database that is not CloudStack's ({@code cloudstack-standin.sql}: the seven
 * CloudStack tables cks-state uses, with CloudStack 4.22's names and types), and the harness's record
 * of state changes ({@code state-history.sql} and its trigger). The same files run on MariaDB / MySQL
 * and on H2 in MySQL mode; each may run again.
 */
public final class StandInSchema {
    /** The stand-in's tables, children first (an order that deletes without foreign key errors). */
    public static final List<String> TABLES = List.of("kubernetes_cluster_vm_map", "vm_instance",
            "async_job", "mshost", "kubernetes_cluster", "configuration", "version");
    /** The record of state changes ({@link #createHistory}). */
    public static final String HISTORY_TABLE = "cks_state_history";
    static final String HISTORY_TRIGGER = "trg_cks_state_history";

    private StandInSchema() {
    }

    /** Creates the stand-in of CloudStack's tables (never on CloudStack's own database). */
    public static void createStandIn(Connection c) throws SQLException {
        run(c, statements("cloudstack-standin.sql"));
    }

    /**
     * Creates {@value #HISTORY_TABLE} anew, empty, and the trigger that records each state change of
     * kubernetes_cluster into it, in the writer's statement (a change that rolls back leaves no row).
     */
    public static void createHistory(Connection c) throws SQLException {
        run(c, statements("state-history.sql"));
        boolean h2 = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("h2");
        String head = "CREATE TRIGGER `" + HISTORY_TRIGGER + "` AFTER UPDATE ON `kubernetes_cluster`"
                + " FOR EACH ROW ";
        run(c, List.of(head + (h2 ? "CALL '" + StateHistoryTrigger.class.getName() + "'"
                // A single-row INSERT: an INSERT ... SELECT would take the table's AUTO-INC lock.
                : "IF NOT (OLD.`state` <=> NEW.`state`) THEN INSERT INTO `" + HISTORY_TABLE + "` (`cluster_id`,"
                        + " `from_state`, `to_state`, `at`) VALUES (NEW.`id`, OLD.`state`, NEW.`state`, NOW(3)); END IF")));
    }

    /** The statements of one of this package's SQL files: comment lines out, split at a ';' that ends a line. */
    static List<String> statements(String resource) {
        try (InputStream in = StandInSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource + " beside StandInSchema");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)^\\s*--.*$", "");
            return Arrays.stream(text.split(";\\s*(\\r?\\n|$)")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void run(Connection c, List<String> statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }
}
