// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What operators expect of the tool: a command without --apply neither creates nor changes a
 * database (H2 files checked byte for byte), the server's own db.properties by default, a help
 * command, database HA settings with the source down.
 */
class OperatorConventionsTest {
    @TempDir
    Path dir;

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A command without --apply tells the server its session is read only: a write on it is refused there. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(value = ToolDatabase.class, names = {"MARIADB", "CONNECTOR_J"})
    void aReadOnlyConnectionIsReadOnlyOnTheServer(ToolDatabase db) throws Exception {
        db.reset();
        OperatorDatabase readOnly = new OperatorDatabase(new org.apache.cloudstack.kubernetes.state.tool.dbprops.DbSettings(
                db.url(), null, null), false);
        // What the server holds for the session (a driver may also refuse a write itself, which proves nothing here).
        try (Connection c = readOnly.connect(new java.io.PrintWriter(java.io.Writer.nullWriter()))) {
            assertEquals(1, sessionReadOnly(c), "the server's session is read only");
        }
        OperatorDatabase writes = new OperatorDatabase(new org.apache.cloudstack.kubernetes.state.tool.dbprops.DbSettings(
                db.url(), null, null), true);
        try (Connection c = writes.connect(new java.io.PrintWriter(java.io.Writer.nullWriter()))) {
            assertEquals(0, sessionReadOnly(c), "--apply's session writes");
        }
    }

    private static int sessionReadOnly(Connection c) throws java.sql.SQLException {
        try (java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT @@session.tx_read_only")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void readOnlyCommandsNeitherCreateNorChangeAnH2Database() throws Exception {
        String missing = "jdbc:h2:file:" + dir.resolve("missing") + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE";
        for (String[] args : new String[][] {{"scan", "--jdbc-url", missing}, {"explain", "1", "--jdbc-url", missing},
            {"schema", "--jdbc-url", missing}, {"schema", "--migrate", "fenced", "--jdbc-url", missing}}) {
            ToolRun run = ToolRun.of(args);
            assertEquals(1, run.code(), run.out() + run.err());
            assertEquals("cks-state " + args[0] + ": connecting to jdbc:h2:file:" + dir.resolve("missing")
                    + ": no such database (the tool never creates one)\n", run.err());
            assertEquals(List.of(), files(), "nothing created by " + String.join(" ", args));
        }
        ToolRun applyMissing = ToolRun.of("scan", "--apply", "--jdbc-url", missing);
        assertEquals(1, applyMissing.code(), applyMissing.out());
        assertEquals(List.of(), files(), "scan --apply creates no database either");

        String url = "jdbc:h2:file:" + dir.resolve("cloud") + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE";
        long stuck;
        try (Connection c = DriverManager.getConnection(url)) {
            StandInSchema.createStandIn(c);
            CloudStackRows.release(c, CloudStackRows.RELEASE);
            stuck = CloudStackRows.on(c).cluster("stuck", "Scaling");
        }
        Path file = dir.resolve("cloud.mv.db");
        String before = sha256(file);
        List<String> filesBefore = files();
        for (String[] args : new String[][] {{"scan", "--jdbc-url", url}, {"explain", "stuck", "--jdbc-url", url},
            {"schema", "--jdbc-url", url}, {"schema", "--migrate", "fenced", "--jdbc-url", url}}) {
            ToolRun run = ToolRun.of(args);
            assertEquals(0, run.code(), String.join(" ", args) + ": " + run.err());
            assertEquals(before, sha256(file), String.join(" ", args) + " changed the database file");
            assertEquals(filesBefore, files());
        }
        ToolRun apply = ToolRun.of("scan", "--apply", "--jdbc-url", url);
        assertEquals(0, apply.code(), apply.err());
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(ToolDatabase.FAILED_SCALE, CloudStackRows.on(c).state(stuck));
        }
    }

    @Test
    void theServersDbPropertiesAreTheDefault() throws Exception {
        String[] hostPort = ToolDatabase.server().split(":");
        Path props = Files.writeString(dir.resolve("db.properties"), "db.cloud.username=" + ToolDatabase.OPERATOR
                + "\ndb.cloud.password=" + ToolDatabase.OPERATOR_PASSWORD + "\ndb.cloud.host=" + hostPort[0]
                + "\ndb.cloud.port=" + hostPort[1] + "\ndb.cloud.name=cloud\ndb.cloud.driver=jdbc:mysql\n");
        ToolDatabase.MARIADB.reset();
        ToolDatabase.H2.reset();
        System.setProperty(DatabaseOptions.DEFAULT_FILE_PROPERTY, props.toString());
        try {
            ToolRun run = ToolRun.of("scan");
            assertEquals(0, run.code(), run.err());
            assertEquals("cks-state scan: using the management server's " + props + "\n", run.err());
            assertTrue(run.out().contains("no stuck Kubernetes cluster"), run.out());
            ToolRun url = ToolRun.of("scan", "--jdbc-url", ToolDatabase.H2.url());
            assertEquals("", url.err(), "a URL given: the file is not read");
            ToolRun user = ToolRun.of("scan", "--user", "x");
            assertEquals(2, user.code());
            assertTrue(user.err().startsWith("cks-state scan: --user and --password-env go with --jdbc-url\n"), user.err());
        } finally {
            System.clearProperty(DatabaseOptions.DEFAULT_FILE_PROPERTY);
        }
    }

    @Test
    void helpIsACommand() {
        ToolRun all = ToolRun.of("help");
        assertEquals(0, all.code());
        for (String command : new String[] {"scan", "explain", "schema", "table", "rules"}) {
            assertTrue(all.out().contains("  " + command + " "), command + " in " + all.out());
        }
        assertFalse(all.out().contains("simulate"), "the operator's tool has no simulator: " + all.out());
        ToolRun scan = ToolRun.of("help", "scan");
        assertEquals(0, scan.code());
        assertTrue(scan.out().startsWith("Usage: cks-state scan "), scan.out());
        assertTrue(scan.out().contains("--overdue-after"), scan.out());
        ToolRun typo = ToolRun.of("scna");
        assertEquals(2, typo.code());
        assertTrue(typo.err().contains("Did you mean: cks-state scan"), typo.err());
        assertTrue(typo.err().endsWith("try 'cks-state --help'\n"), typo.err());
        assertFalse(typo.err().contains("Usage:"), "no usage text after an error: " + typo.err());
        ToolRun simulate = ToolRun.of("simulate");
        assertEquals(2, simulate.code());
        assertTrue(simulate.err().contains("simulate is in the simulator's jar, cks-state-simulator.jar"), simulate.err());
        assertFalse(simulate.err().contains("Did you mean"), simulate.err());
    }

    /**
     * A misspelled database name on MariaDB: the server answers 1044 (not 1049) to a user without
     * global grants, so the reason names both causes; nothing is created.
     */
    @Test
    void aMisspelledMariaDbDatabaseIsNamedAndNotCreated() throws Exception {
        for (ToolDatabase db : new ToolDatabase[] {ToolDatabase.MARIADB, ToolDatabase.CONNECTOR_J}) {
            String url = db.url().replaceFirst("/cloud\\?", "/clouud?");
            String bare = db.bareUrl().replaceFirst("/cloud$", "/clouud");
            for (String[] args : new String[][] {{"scan", "--jdbc-url", url}, {"schema", "--jdbc-url", url}}) {
                ToolRun run = ToolRun.of(args);
                assertEquals(1, run.code(), run.out() + run.err());
                assertEquals("cks-state " + args[0] + ": connecting to " + bare + " as cks: access denied to the database"
                        + " (it does not exist, or the user has no grants on it)\n", run.err());
            }
        }
        try (Connection c = ToolDatabase.MARIADB.connect();
                var rs = c.getMetaData().getCatalogs()) {
            while (rs.next()) {
                assertFalse(rs.getString(1).equalsIgnoreCase("clouud"), "a read-only command created a database");
            }
        }
    }

    /** db.ha.enabled=true with the source down (nothing listens on 127.0.0.2) and the replica up. */
    @Test
    void databaseHaTriesTheSourceThenEachReplica() throws Exception {
        ToolDatabase.MARIADB.reset();
        String port = ToolDatabase.server().split(":")[1];
        for (String driver : new String[] {"jdbc:mysql", "jdbc:mariadb"}) {
            ToolRun down = ToolRun.of("scan", "--db-properties", ha(driver, "127.0.0.2", "127.0.0.1", port).toString());
            assertEquals(0, down.code(), down.err());
            assertTrue(down.err().startsWith("cks-state: the source did not answer (cannot reach the database server"),
                    down.err());
            assertTrue(down.err().endsWith("; using replica " + driver + "://127.0.0.1:" + port + "/cloud\n"), down.err());
            assertTrue(down.out().contains("no stuck Kubernetes cluster"), down.out());
            ToolRun up = ToolRun.of("scan", "--db-properties", ha(driver, "127.0.0.1", "127.0.0.2", port).toString());
            assertEquals(0, up.code(), up.err());
            assertEquals("", up.err(), "the source answers: no replica used");
            ToolRun none = ToolRun.of("scan", "--db-properties", ha(driver, "127.0.0.2", "127.0.0.3", port).toString());
            assertEquals(1, none.code());
            assertTrue(none.err().startsWith("cks-state scan: connecting to " + driver + "://127.0.0.2,127.0.0.3:" + port
                    + "/cloud as " + ToolDatabase.OPERATOR + " (the source, then 1 replica(s)): cannot reach the database"
                    + " server"), none.err());
            assertTrue(none.err().contains("; " + driver + "://127.0.0.3:" + port + "/cloud: cannot reach"), none.err());
            assertFalse(none.err().contains(ToolDatabase.OPERATOR_PASSWORD), none.err());
        }
    }

    private Path ha(String driver, String source, String replica, String port) throws IOException {
        return Files.writeString(dir.resolve("db-ha.properties"), "db.cloud.username=" + ToolDatabase.OPERATOR
                + "\ndb.cloud.password=" + ToolDatabase.OPERATOR_PASSWORD + "\ndb.cloud.host=" + source
                + "\ndb.cloud.port=" + port + "\ndb.cloud.name=cloud\ndb.cloud.driver=" + driver
                + "\ndb.cloud.autoReconnect=true\ndb.ha.enabled=true\ndb.cloud.replicas=" + replica
                + "\ndb.cloud.failOverReadOnly=false\ndb.cloud.reconnectAtTxEnd=true\ndb.cloud.autoReconnectForPools=true"
                + "\ndb.cloud.secondsBeforeRetrySource=3600\ndb.cloud.queriesBeforeRetrySource=5000"
                + "\ndb.cloud.initialTimeout=3600\ndb.ha.loadBalanceStrategy=com.cloud.utils.db.StaticStrategy\n");
    }
}
