package org.apache.cloudstack.kubernetes.state.examples;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;

/** The databases the examples run on: embedded H2 and the throwaway MariaDB of `make test`. */
enum ExampleDatabase {
    H2, MARIADB;

    String url() {
        if (this == H2) {
            return "jdbc:h2:mem:cks_examples;MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000";
        }
        String url = System.getProperty("cks.mariadb.url", "").trim();
        if (url.isEmpty() || url.startsWith("${")) {
            fail("[mariadb] needs -Dmariadb.url: run `make test`");
        }
        return url;
    }

    ConnectionSource connections() {
        return () -> DriverManager.getConnection(url());
    }

    /** The CloudStack tables, compat schema, no rows. */
    void reset() throws SQLException {
        try (Connection c = connections().open(); Statement st = c.createStatement()) {
            CloudStackSchema.create(c);
            CloudStackSchema.createHistory(c);
            CloudStackSchema.migrateDown(c);
            st.execute("DELETE FROM cks_state_history");
            for (String table : CloudStackSchema.CLOUDSTACK_TABLES) {
                st.execute("DELETE FROM " + table);
            }
        }
    }

    long cluster(String state) throws SQLException {
        try (Connection c = connections().open(); PreparedStatement ps = c.prepareStatement("INSERT INTO kubernetes_cluster"
                + " (uuid, name, state, created, cluster_type) VALUES (?, ?, ?, NOW(), 'CloudManaged')",
                Statement.RETURN_GENERATED_KEYS)) {
            String name = "example-" + System.nanoTime();
            ps.setString(1, name);
            ps.setString(2, name);
            ps.setString(3, state);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    String state(long id) throws SQLException {
        try (Connection c = connections().open(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT state FROM kubernetes_cluster WHERE id = " + id)) {
            rs.next();
            return rs.getString(1).strip();
        }
    }

    void execute(String sql) throws SQLException {
        try (Connection c = connections().open(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Override
    public String toString() {
        return "[" + name().toLowerCase(java.util.Locale.ROOT) + "]";
    }
}
