// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;
import org.junit.jupiter.api.Assumptions;

/**
 * The databases every DB test runs against: embedded H2 in MySQL mode with the stand-in of
 * CloudStack's tables, and CloudStack's own database built from CloudStack's SQL
 * ({@code scripts/cloudstack-db.sh load}) on a real MariaDB server (JDBC URL from system property
 * {@code cks.mariadb.url}, which Maven sets from {@code -Dmariadb.url}), reached by the MariaDB
 * driver and, as CloudStack's pool reaches it, by
 * MySQL Connector/J with the management server's URL parameters. Each case is one database (and
 * driver) x driver mode x isolation level; its {@code toString()} starts with {@code [h2]},
 * {@code [mariadb]} or {@code [connector-j]} for the display names.
 *
 * <p>When the MariaDB URL is empty the MariaDB cases FAIL (never skip) with a message telling how
 * to start the server. Only {@code make check}, the quick loop, sets {@code cks.h2.only}: there the
 * MariaDB cases are aborted, never run.
 */
final class Databases {
    static final String MARIADB_URL_PROPERTY = "cks.mariadb.url";
    static final String H2_ONLY_PROPERTY = "cks.h2.only";
    /** What a fresh CloudStack install puts in db.cloud.url.params (Connector/J reports found rows by default). */
    static final String CLOUDSTACK_URL_PARAMS = "prepStmtCacheSize=517&cachePrepStmts=true&sessionVariables=sql_mode="
            + "'STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'"
            + "&serverTimezone=UTC";
    private static final Set<String> READY = ConcurrentHashMap.newKeySet();

    private Databases() {
    }

    /** Driver modes: how the server reports the rows of an UPDATE. */
    enum RowsMode {
        /** Default of MariaDB Connector/J: rows matched by the WHERE clause. */
        FOUND_ROWS("found-rows"),
        /** {@code useAffectedRows=true}: rows whose values changed. */
        AFFECTED_ROWS("affected-rows");

        final String label;

        RowsMode(String label) {
            this.label = label;
        }
    }

    /** One database x rows mode x isolation level. */
    static final class Db {
        final String kind;
        final RowsMode rows;
        final int isolation;

        Db(String kind, RowsMode rows, int isolation) {
            this.kind = kind;
            this.rows = rows;
            this.isolation = isolation;
        }

        /** On the MariaDB server, whichever driver. */
        boolean isMariaDb() {
            return kind.equals("mariadb") || isConnectorJ();
        }

        /** Through MySQL Connector/J, the driver of the management server's pool. */
        boolean isConnectorJ() {
            return kind.equals("connector-j");
        }

        String isolationLabel() {
            return isolation == Connection.TRANSACTION_READ_COMMITTED ? "READ COMMITTED" : "REPEATABLE READ";
        }

        @Override
        public String toString() {
            return "[" + kind + "] " + (isMariaDb() ? rows.label + ", " : "") + isolationLabel();
        }

        String url() {
            if (!isMariaDb()) {
                String name = "cks_" + (isolation == Connection.TRANSACTION_READ_COMMITTED ? "rc" : "rr");
                return "jdbc:h2:mem:" + name + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
            }
            Assumptions.assumeFalse(Boolean.getBoolean(H2_ONLY_PROPERTY), "make check runs H2 only: " + this);
            String base = System.getProperty(MARIADB_URL_PROPERTY, "").trim();
            if (base.isEmpty() || base.startsWith("${")) {
                fail("MariaDB test case " + this + ": system property " + MARIADB_URL_PROPERTY + " is empty. Run"
                        + " `make test`, or start the throwaway server with `scripts/mariadb.sh start` and pass"
                        + " -Dmariadb.url=\"$(../scripts/mariadb.sh url)\" to Maven.");
            }
            String url = base + (base.contains("?") ? "&" : "?") + "useAffectedRows=" + (rows == RowsMode.AFFECTED_ROWS);
            return isConnectorJ() ? url.replaceFirst("^jdbc:mariadb:", "jdbc:mysql:") + "&" + CLOUDSTACK_URL_PARAMS : url;
        }

        /** A new connection with this case's isolation level (auto-commit on). */
        Connection connect() throws SQLException {
            Connection c = DriverManager.getConnection(url());
            c.setTransactionIsolation(isolation);
            return c;
        }

        /** A connection source for the library under test. */
        ConnectionSource source() {
            return this::connect;
        }

        /**
         * A clean database: on H2 the stand-in (created once), on MariaDB CloudStack's own database
         * as {@code scripts/cloudstack-db.sh load} left it; every row the kit wrote deleted
         * ({@link CloudStackRows#reset}), and cks_state_history emptied.
         */
        void reset() throws SQLException {
            try (Connection c = connect()) {
                String key = isMariaDb() ? "mariadb" : url();
                if (READY.add(key)) {
                    if (!isMariaDb()) {
                        StandInSchema.createStandIn(c);
                    }
                    StandInSchema.createHistory(c);
                }
                CloudStackRows.reset(c);
                try (Statement st = c.createStatement()) {
                    st.executeUpdate("DELETE FROM cks_state_history");
                }
            }
        }
    }

    /**
     * Every database case: H2 x 2 isolation levels, MariaDB x 2 rows modes x 2 isolation levels,
     * and Connector/J (found rows, as CloudStack runs it) x 2 isolation levels.
     */
    static Stream<Db> all() {
        return Stream.of(
                new Db("h2", RowsMode.FOUND_ROWS, Connection.TRANSACTION_READ_COMMITTED),
                new Db("h2", RowsMode.FOUND_ROWS, Connection.TRANSACTION_REPEATABLE_READ),
                new Db("mariadb", RowsMode.FOUND_ROWS, Connection.TRANSACTION_REPEATABLE_READ),
                new Db("mariadb", RowsMode.AFFECTED_ROWS, Connection.TRANSACTION_REPEATABLE_READ),
                new Db("mariadb", RowsMode.FOUND_ROWS, Connection.TRANSACTION_READ_COMMITTED),
                new Db("mariadb", RowsMode.AFFECTED_ROWS, Connection.TRANSACTION_READ_COMMITTED),
                new Db("connector-j", RowsMode.FOUND_ROWS, Connection.TRANSACTION_READ_COMMITTED),
                new Db("connector-j", RowsMode.FOUND_ROWS, Connection.TRANSACTION_REPEATABLE_READ));
    }

    /** One case per database (REPEATABLE READ, the MySQL default; found rows, the driver default). */
    static Stream<Db> perDatabase() {
        return Stream.of(
                new Db("h2", RowsMode.FOUND_ROWS, Connection.TRANSACTION_REPEATABLE_READ),
                new Db("mariadb", RowsMode.FOUND_ROWS, Connection.TRANSACTION_REPEATABLE_READ),
                new Db("connector-j", RowsMode.FOUND_ROWS, Connection.TRANSACTION_READ_COMMITTED));
    }

    /** MariaDB only (contention). */
    static Db mariadb() {
        return new Db("mariadb", RowsMode.FOUND_ROWS, Connection.TRANSACTION_REPEATABLE_READ);
    }

    /** The MariaDB server through Connector/J as CloudStack's pool connects (contention). */
    static Db connectorJ() {
        return new Db("connector-j", RowsMode.FOUND_ROWS, Connection.TRANSACTION_READ_COMMITTED);
    }
}
