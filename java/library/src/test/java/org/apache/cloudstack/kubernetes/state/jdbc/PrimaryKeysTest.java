// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Galera replicates only tables with a primary key safely (and many Galera setups force one): every
 * table the library writes has one, with the fenced schema, and so does the simulator's history table.
 */
class PrimaryKeysTest {
    static java.util.stream.Stream<Databases.Db> perDatabase() {
        return Databases.perDatabase();
    }

    private static boolean hasPrimaryKey(Connection c, String table) throws SQLException {
        for (String name : new String[] {table, table.toUpperCase(Locale.ROOT)}) {
            try (ResultSet rs = c.getMetaData().getPrimaryKeys(c.getCatalog(), null, name)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("perDatabase")
    void everyTableHasAPrimaryKey(Databases.Db db) throws SQLException {
        db.reset();
        List<String> missing = new ArrayList<>();
        try (Connection c = db.connect()) {
            CloudStackSchema.migrateUp(c);
            List<String> tables = new ArrayList<>(StandInSchema.TABLES);
            tables.add("cks_state_history");
            for (String table : tables) {
                if (!hasPrimaryKey(c, table)) {
                    missing.add(table);
                }
            }
            CloudStackSchema.migrateDown(c);
            try (java.sql.Statement st = c.createStatement()) { // the check itself can tell a table without one
                st.execute("CREATE TABLE cks_no_key (x int)");
                org.junit.jupiter.api.Assertions.assertFalse(hasPrimaryKey(c, "cks_no_key"));
                st.execute("DROP TABLE cks_no_key");
            }
        }
        assertEquals(List.of(), missing, "tables without a primary key");
    }
}
