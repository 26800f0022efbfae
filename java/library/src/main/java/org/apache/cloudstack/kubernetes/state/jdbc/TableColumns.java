package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
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
        // The result set's metadata, not DatabaseMetaData: no information_schema query (MariaDB
        // builds temporary tables for those), and the same answer on H2 and MariaDB.
        Set<String> out = new LinkedHashSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnName(i).toLowerCase(Locale.ROOT));
            }
        } finally {
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
        return out;
    }
}
