// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;

/** The simulation's tables: made only on an empty database or a previous run's, never on anyone else's data. */
final class SimulationSchema {
    /** Marks a database as the simulator's own: only such a database is ever emptied. */
    private static final String MARKER_TABLE = "cks_simulation";

    private SimulationSchema() {
    }

    /**
     * Creates the tables and empties them. Before it writes anything it checks that the database is
     * empty or a previous run's (marked): it never touches anyone else's data.
     */
    static void prepare(Connection c, String described) throws SQLException {
        try (Statement st = c.createStatement()) {
            if (!CloudStackSchema.tableExists(c, MARKER_TABLE)) {
                List<String> tables = tables(c);
                if (!tables.isEmpty()) {
                    throw new IllegalStateException("refusing to simulate on " + described + ": it is neither empty nor"
                            + " a previous simulate run's database (it has " + tables.size() + " table(s): "
                            + String.join(", ", tables.subList(0, Math.min(5, tables.size())))
                            + (tables.size() > 5 ? ", ..." : "") + "); give an empty database");
                }
                st.execute("CREATE TABLE IF NOT EXISTS " + MARKER_TABLE + " (id int PRIMARY KEY)");
            }
            StandInSchema.createStandIn(c);
            StandInSchema.createHistory(c);
            st.execute("DELETE FROM cks_state_history");
            for (String table : StandInSchema.TABLES) {
                st.execute("DELETE FROM " + table);
            }
        }
    }

    /** The database's own tables (not the system's). */
    private static List<String> tables(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), null, "%", null)) {
            while (rs.next()) {
                String schema = rs.getString("TABLE_SCHEM");
                String type = rs.getString("TABLE_TYPE");
                boolean system = schema != null && schema.equalsIgnoreCase("INFORMATION_SCHEMA")
                        || type == null || type.toUpperCase(Locale.ROOT).contains("SYSTEM");
                if (!system) {
                    out.add(rs.getString("TABLE_NAME"));
                }
            }
        }
        return out;
    }
}
