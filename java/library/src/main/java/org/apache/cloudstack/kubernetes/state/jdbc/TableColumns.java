// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** The columns a table has in this database: CloudStack's schema grows by release. */
final class TableColumns {
    private TableColumns() {
    }

    /** The lower-case column names of {@code table} (a fixed CloudStack table name). */
    static Set<String> of(Connection c, String table) throws SQLException {
        // Rows, not a result set's metadata: the management server's pool sets Connector/J's
        // cacheResultSetMetadata, which keeps a query's columns from before a migration. SHOW
        // COLUMNS answers on MariaDB, MySQL and H2 alike, without an information_schema query.
        Set<String> out = new LinkedHashSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW COLUMNS FROM " + table)) {
            while (rs.next()) {
                out.add(rs.getString(1).toLowerCase(Locale.ROOT));
            }
        } finally {
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
        return out;
    }
}
