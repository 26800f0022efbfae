package org.apache.cloudstack.kubernetes.state.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;

/** The databases the tool's tests run on: embedded H2 and the throwaway MariaDB of `make test`. */
enum ToolDatabase {
    H2, MARIADB;

    /** The JDBC URL the tool is given. */
    String url() {
        if (this == H2) {
            return "jdbc:h2:mem:cks_tool;MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
        }
        String url = System.getProperty("cks.mariadb.url", "").trim();
        if (url.isEmpty() || url.startsWith("${")) {
            fail("[mariadb] needs -Dmariadb.url: run `make test`, or `scripts/mariadb.sh start` and pass"
                    + " -Dmariadb.url=\"$(../scripts/mariadb.sh url)\"");
        }
        return url;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url());
    }

    /** The CloudStack tables, created if needed and emptied. */
    void reset() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            CloudStackSchema.create(c);
            CloudStackSchema.createHistory(c);
            st.execute("DELETE FROM cks_state_history");
            for (String table : CloudStackSchema.CLOUDSTACK_TABLES) {
                st.execute("DELETE FROM " + table);
            }
        }
    }

    @Override
    public String toString() {
        return "[" + name().toLowerCase(java.util.Locale.ROOT) + "]";
    }
}
