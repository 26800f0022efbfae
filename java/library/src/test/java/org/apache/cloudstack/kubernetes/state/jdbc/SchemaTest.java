package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The DDL runs (twice) on both databases and gives CloudStack's column names and types. */
class SchemaTest {

    static Stream<Databases.Db> dbs() {
        return Databases.perDatabase();
    }

    @ParameterizedTest(name = "{0} the schema is idempotent and has CloudStack's columns")
    @MethodSource("dbs")
    void schemaHasCloudStacksColumns(Databases.Db db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            CloudStackSchema.create(c); // again: CREATE TABLE IF NOT EXISTS
            CloudStackSchema.createHistory(c);
            Map<String, String> cluster = columns(c, "kubernetes_cluster");
            assertEquals("CHAR(32)", cluster.get("state"));
            assertEquals("VARCHAR(40)", cluster.get("uuid"));
            assertEquals("VARCHAR(64)", cluster.get("cluster_type"));
            assertTrue(cluster.get("id").startsWith("BIGINT"), cluster.get("id"));
            assertTrue(cluster.keySet().containsAll(List.of("name", "created", "removed", "gc", "control_node_count",
                    "node_count", "zone_id", "account_id", "domain_id")), cluster.keySet().toString());
            Map<String, String> job = columns(c, "async_job");
            assertTrue(job.keySet().containsAll(List.of("uuid", "job_cmd", "job_cmd_info", "job_status",
                    "job_result_code", "job_result", "instance_type", "instance_id", "job_init_msid",
                    "job_executing_msid", "job_complete_msid", "created", "last_updated", "removed")), job.keySet().toString());
            assertTrue(columns(c, "mshost").keySet().containsAll(List.of("msid", "runid", "name", "state", "last_update",
                    "removed")));
            assertTrue(columns(c, "kubernetes_cluster_vm_map").keySet().containsAll(List.of("cluster_id", "vm_id",
                    "control_node")));
            Map<String, String> vm = columns(c, "vm_instance");
            assertEquals("VARCHAR(32)", vm.get("state"));
            assertTrue(vm.keySet().containsAll(List.of("id", "uuid", "name", "removed")));
            assertTrue(columns(c, "cks_state_history").keySet().containsAll(List.of("cluster_id", "from_state",
                    "to_state", "event", "msid", "at")));
            assertTrue(columns(c, "configuration").keySet().containsAll(List.of("category", "instance", "component",
                    "name", "value", "default_value", "description", "scope", "is_dynamic", "updated")));
        }
        assertEquals(6, CloudStackSchema.statements(CloudStackSchema.CLOUDSTACK_RESOURCE).size(), "six tables");
        assertEquals(6, CloudStackSchema.CLOUDSTACK_TABLES.size(), "each table emptied by the tests");
    }

    private static Map<String, String> columns(Connection c, String table) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        Map<String, String> out = new HashMap<>();
        try (ResultSet rs = md.getColumns(c.getCatalog(), null, table, null)) {
            while (rs.next()) {
                String type = rs.getString("TYPE_NAME").toUpperCase(Locale.ROOT).replace(" UNSIGNED", "");
                String sized = type.startsWith("CHAR") || type.startsWith("VARCHAR") || type.equals("CHARACTER")
                        || type.equals("CHARACTER VARYING")
                        ? (type.startsWith("VARCHAR") || type.equals("CHARACTER VARYING") ? "VARCHAR" : "CHAR")
                                + "(" + rs.getInt("COLUMN_SIZE") + ")"
                        : type;
                out.put(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT), sized);
            }
        }
        return out;
    }
}
