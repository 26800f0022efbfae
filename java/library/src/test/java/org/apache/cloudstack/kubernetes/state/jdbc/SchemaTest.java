// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stand-in runs (twice) on H2, and every column it has is CloudStack's: the same name and type
 * as in CloudStack's own database, built from CloudStack's SQL ({@code scripts/cloudstack-db.sh}).
 */
class SchemaTest {
    private static final Databases.Db H2 = Databases.perDatabase().filter(db -> !db.isMariaDb()).findFirst().orElseThrow();

    @Test
    void theStandInIsIdempotentAndHasWhatTheLibraryReads() throws SQLException {
        H2.reset();
        try (Connection c = H2.connect()) {
            StandInSchema.createStandIn(c); // again: CREATE TABLE IF NOT EXISTS
            StandInSchema.createHistory(c);
            Map<String, String> cluster = columns(c, "kubernetes_cluster");
            assertEquals("CHAR(32)", cluster.get("state"));
            assertTrue(cluster.keySet().containsAll(List.of("uuid", "cluster_type", "name", "created", "removed", "gc",
                    "control_node_count", "node_count", "etcd_node_count", "zone_id", "account_id", "domain_id")),
                    cluster.keySet().toString());
            assertTrue(columns(c, "async_job").keySet().containsAll(List.of("uuid", "job_cmd", "job_cmd_info", "job_status",
                    "job_result_code", "job_result", "instance_type", "instance_id", "job_init_msid",
                    "job_executing_msid", "job_complete_msid", "created", "last_updated", "removed")));
            assertTrue(columns(c, "mshost").keySet().containsAll(List.of("msid", "runid", "name", "state", "last_update",
                    "removed")));
            assertEquals(Set.of("id", "cluster_id", "from_state", "to_state", "at"),
                    columns(c, "cks_state_history").keySet());
            for (String table : StandInSchema.TABLES) {
                assertTrue(CloudStackSchema.tableExists(c, table), table);
            }
        }
        assertEquals(7, StandInSchema.TABLES.size(), "each table emptied by the tests");
    }

    /** The harness's history: every state change, whoever writes it, in the writer's transaction. */
    @ParameterizedTest(name = "{0}: the history trigger records each state change, in its transaction")
    @MethodSource("org.apache.cloudstack.kubernetes.state.jdbc.Databases#perDatabase")
    void theHistoryTriggerRecordsEveryStateChange(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE kubernetes_cluster SET state = 'Stopping' WHERE id = " + id);
            st.executeUpdate("UPDATE kubernetes_cluster SET name = 'renamed' WHERE id = " + id);
            st.executeUpdate("UPDATE kubernetes_cluster SET state = 'Stopping' WHERE id = " + id);
            c.setAutoCommit(false);
            st.executeUpdate("UPDATE kubernetes_cluster SET state = 'Stopped' WHERE id = " + id);
            c.rollback();
            c.setAutoCommit(true);
        }
        assertEquals(1, f.count("SELECT COUNT(*) FROM cks_state_history WHERE cluster_id = " + id));
        assertEquals(1, f.count("SELECT COUNT(*) FROM cks_state_history WHERE cluster_id = " + id
                + " AND from_state = 'Running' AND to_state = 'Stopping'"));
    }

    @Test
    void everyStandInColumnIsCloudStacks() throws SQLException {
        H2.reset();
        Databases.Db cloudstack = Databases.mariadb();
        cloudstack.reset();
        List<String> differences = new ArrayList<>();
        try (Connection standIn = H2.connect(); Connection real = cloudstack.connect()) {
            for (String table : StandInSchema.TABLES) {
                Map<String, String> theirs = columns(real, table);
                assertFalse(theirs.isEmpty(), "CloudStack's database has " + table);
                columns(standIn, table).forEach((column, type) -> {
                    // cks-state's own fence columns come and go with the fenced mode's migration.
                    if (!CloudStackSchema.FENCE_COLUMNS.contains(column) && !type.equals(theirs.get(column))) {
                        differences.add(table + "." + column + ": stand-in " + type + ", CloudStack " + theirs.get(column));
                    }
                });
            }
        }
        assertEquals(List.of(), differences);
    }

    private static Map<String, String> columns(Connection c, String table) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        Map<String, String> out = new HashMap<>();
        try (ResultSet rs = md.getColumns(c.getCatalog(), null, table, null)) {
            while (rs.next()) {
                String type = rs.getString("TYPE_NAME").toUpperCase(Locale.ROOT).replace(" UNSIGNED", "");
                // Drivers name a tinyint(1) BIT, BOOLEAN or TINYINT, and a text CLOB or VARCHAR.
                type = switch (type) {
                    case "BIT", "BOOLEAN" -> "TINYINT";
                    case "CHARACTER LARGE OBJECT", "CLOB" -> "TEXT";
                    case "INTEGER" -> "INT";
                    case "TIMESTAMP" -> "DATETIME";
                    default -> type;
                };
                String sized = type.startsWith("CHAR") || type.startsWith("VARCHAR") || type.equals("CHARACTER")
                        || type.equals("CHARACTER VARYING")
                        ? (type.startsWith("VARCHAR") || type.equals("CHARACTER VARYING") ? "VARCHAR" : "CHAR")
                                + "(" + rs.getInt("COLUMN_SIZE") + ")"
                        : type;
                // H2 keeps MySQL's TEXT as a VARCHAR of a billion characters.
                out.put(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT),
                        sized.equals("VARCHAR(1000000000)") ? "TEXT" : sized);
            }
        }
        return out;
    }
}
