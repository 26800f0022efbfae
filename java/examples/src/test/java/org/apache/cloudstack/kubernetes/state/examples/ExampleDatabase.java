// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.examples;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;

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

    /** CloudStack's tables (H2: the stand-in; MariaDB: CloudStack's own database), compat schema, no rows of the kit. */
    void reset() throws SQLException {
        try (Connection c = connections().open(); Statement st = c.createStatement()) {
            if (this == H2) {
                StandInSchema.createStandIn(c);
            }
            StandInSchema.createHistory(c);
            CloudStackSchema.migrateDown(c);
            st.execute("DELETE FROM cks_state_history");
            CloudStackRows.reset(c);
        }
    }

    /** The kit that writes CloudStack's rows here. */
    CloudStackRows rows() {
        return new CloudStackRows(connections()::open);
    }

    long cluster(String state) throws SQLException {
        return rows().cluster(state).name("example-" + System.nanoTime()).insert();
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
