// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;

/**
 * The databases the tool's tests run on: embedded H2 (the stand-in of CloudStack's tables), and
 * CloudStack's own database on the throwaway MariaDB of `make test` through the MariaDB driver and
 * through MySQL Connector/J (jdbc:mysql, as the management server).
 */
public enum ToolDatabase {
    H2, MARIADB, CONNECTOR_J;

    /** The operator account scripts/mariadb.sh creates: a password no other text contains. */
    static final String OPERATOR = "cloudop";
    static final String OPERATOR_PASSWORD = "Op-S3cret-4417";

    /** The line naming the table of the tests' databases (release 4.23.0.0, CloudStackRows.RELEASE). */
    static final String TABLE_LINE = "table: 4.23 (CloudStack 4.23.0.0's, from the version table)\n";
    /**
     * Where that table sends a Scaling cluster whose operation is over: 4.23 fails a scale back to Running
     * (#12386), 4.22 and older to Alert (ReleaseTableScanTest covers each release).
     */
    static final String FAILED_SCALE = "Running";
    /** The same in JSON. */
    static final String TABLE_JSON = "\"table\": \"4.23\", \"table_chosen\": \"CloudStack 4.23.0.0's, from the version table\"";

    /** Scan's and explain's line naming the commands whose jobs hold a cluster: the table's release line's. */
    static final String JOBS_LINE = "job commands: CloudStack 4.21 and later's cluster commands (8)\n";
    /** The same in JSON. */
    static final String JOBS_JSON = "\"job_commands\": \"CloudStack 4.21 and later's cluster commands (8)\"";

    /** The JDBC URL the tool is given. */
    public String url() {
        if (this == H2) {
            return "jdbc:h2:mem:cks_tool;MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
        }
        String url = System.getProperty("cks.mariadb.url", "").trim();
        if (url.isEmpty() || url.startsWith("${")) {
            fail("[mariadb] needs -Dmariadb.url: run `make test`, or `scripts/mariadb.sh start` and pass"
                    + " -Dmariadb.url=\"$(../scripts/mariadb.sh url)\"");
        }
        return this == CONNECTOR_J ? url.replaceFirst("^jdbc:mariadb:", "jdbc:mysql:") : url;
    }

    /** The URL of the same database without its user and password, and the server's host:port. */
    String bareUrl() {
        return url().replaceFirst("[?&]user=[^&]*", "").replaceFirst("[?&]password=[^&]*", "");
    }

    /** host:port of the MariaDB server. */
    static String server() {
        Matcher m = Pattern.compile("//([^/]+)/").matcher(MARIADB.url());
        assertTrue(m.find(), "unexpected MariaDB URL shape");
        return m.group(1);
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url());
    }

    /** Every cluster's state by its name, in id order. */
    java.util.Map<String, String> statesByName() throws SQLException {
        java.util.Map<String, String> states = new java.util.LinkedHashMap<>();
        try (Connection c = connect(); Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT name, state FROM kubernetes_cluster ORDER BY id")) {
            while (rs.next()) {
                states.put(rs.getString(1), rs.getString(2).strip());
            }
        }
        return states;
    }

    /**
     * A clean database: on H2 the stand-in of CloudStack's tables, on MariaDB CloudStack's own
     * database as {@code scripts/cloudstack-db.sh load} left it, in compat mode (no fence columns:
     * the tool's --mode auto follows the schema); what the kit wrote deleted.
     */
    void reset() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            if (this == H2) {
                StandInSchema.createStandIn(c);
            }
            if (org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration.stage(c)
                    != org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration.Stage.COMPAT) {
                CloudStackSchema.migrateDown(c);
            }
            StandInSchema.createHistory(c);
            st.execute("DELETE FROM cks_state_history");
            CloudStackRows.reset(c);
        }
    }

    @Override
    public String toString() {
        return "[" + name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + "]";
    }
}
