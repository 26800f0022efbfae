// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * No password reaches the tool's output, however it was given (in the URL as user:password@ or
 * password=, in db.properties, in an environment variable, typed at the prompt), also when the
 * driver's own message carries it; on both drivers of MariaDB and on H2. A failed login is one line
 * that names what the operator did, with no driver log line on standard error.
 */
class NoSecretPrintedTest {
    private static final String RIGHT = ToolDatabase.OPERATOR_PASSWORD;
    private static final String WRONG = "Wr0ng-S3cret-9931";
    private static final String USER = ToolDatabase.OPERATOR;
    private static final String H2_URL = "jdbc:h2:mem:cks_secret;MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1";

    @TempDir
    Path dir;

    /** The two MariaDB drivers. */
    enum Driver {
        MARIADB("jdbc:mariadb"), CONNECTOR_J("jdbc:mysql");

        final String scheme;

        Driver(String scheme) {
            this.scheme = scheme;
        }

        String url(String userInfo, String parameters) {
            return scheme + "://" + (userInfo == null ? "" : userInfo + "@") + ToolDatabase.server() + "/cloud"
                    + (parameters == null ? "" : "?" + parameters);
        }
    }

    @BeforeAll
    static void databases() throws SQLException {
        ToolDatabase.MARIADB.reset();
        try (Connection c = DriverManager.getConnection(H2_URL, USER, RIGHT)) {
            StandInSchema.createStandIn(c);
        }
    }

    private static final DatabasePassword.Prompt TERMINAL = DatabasePassword.prompt;

    @AfterEach
    void terminalAgain() {
        DatabasePassword.prompt = TERMINAL;
    }

    private static void assertNoSecret(ToolRun run, String... secrets) {
        for (String s : secrets) {
            assertFalse(run.out().contains(s) || run.err().contains(s), "a password was printed: " + run.out() + run.err());
        }
    }

    private static void assertDenied(ToolRun run, String command, String where) {
        assertEquals(1, run.code(), run.out() + run.err());
        assertEquals("cks-state " + command + ": connecting to " + where + ": access denied (wrong user or password)\n",
                run.err());
        assertEquals("", run.out());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Driver.class)
    void inTheUrlAsParameters(Driver driver) {
        ToolRun denied = ToolRun.of("scan", "--jdbc-url", driver.url(null, "user=" + USER + "&password=" + WRONG));
        assertDenied(denied, "scan", driver.scheme + "://" + ToolDatabase.server() + "/cloud as " + USER);
        assertNoSecret(denied, WRONG);
        ToolRun ok = ToolRun.of("scan", "--jdbc-url", driver.url(null, "user=" + USER + "&password=" + RIGHT));
        assertEquals(0, ok.code(), ok.err());
        assertNoSecret(ok, RIGHT);
        ToolRun explain = ToolRun.of("explain", "nowhere", "--jdbc-url", driver.url(null, "user=" + USER + "&password=" + WRONG));
        assertDenied(explain, "explain", driver.scheme + "://" + ToolDatabase.server() + "/cloud as " + USER);
        ToolRun schema = ToolRun.of("schema", "--jdbc-url", driver.url(null, "user=" + USER + "&password=" + WRONG));
        assertNoSecret(schema, WRONG);
        assertEquals(1, schema.code());
    }

    /** The drivers disagree on which wins (MariaDB's the URL's, Connector/J the flags'): named twice is refused. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Driver.class)
    void inTheUrlAndInTheFlagsIsRefused(Driver driver) {
        for (String url : List.of(driver.url(null, "user=" + USER + "&password=" + WRONG), driver.url(USER + ":" + WRONG, null),
                driver.url(null, "password=" + WRONG))) {
            ToolRun run = ToolRun.of("scan", "--jdbc-url", url, "--user", USER);
            assertEquals(2, run.code(), run.out() + run.err());
            assertTrue(run.err().startsWith("cks-state scan: --jdbc-url names a user or password, and --user or"
                    + " --password-env does too: give them in one place"), run.err());
            assertNoSecret(run, WRONG);
        }
    }

    @Test
    void aUrlThatIsNoJdbcUrlIsAUsageError() {
        for (String url : List.of("notajdbcurl", "", "mysql://" + USER + ":" + WRONG + "@127.0.0.1/cloud")) {
            ToolRun run = ToolRun.of("scan", "--jdbc-url", url);
            assertEquals(2, run.code(), run.out() + run.err());
            assertTrue(run.err().startsWith("cks-state scan: --jdbc-url is not a JDBC URL: one starts with jdbc:"), run.err());
            assertNoSecret(run, WRONG);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Driver.class)
    void inTheUrlAsUserInfo(Driver driver) {
        // The MariaDB driver reads "user:password@host" as a host with a bad port and says so, password included.
        for (String password : new String[] {WRONG, RIGHT}) {
            ToolRun run = ToolRun.of("scan", "--jdbc-url", driver.url(USER + ":" + password, null));
            assertNoSecret(run, password);
            assertTrue(run.code() == 0 || run.err().startsWith("cks-state scan: connecting to " + driver.scheme + "://"
                    + ToolDatabase.server() + "/cloud as " + USER + ": "), run.err());
            assertEquals(run.code() == 0 ? 0 : 1, run.err().lines().count(), run.err());
        }
    }

    @Test
    void inTheUrlOfH2AndWithPasswordEnvUnsetOrTyped() {
        ToolRun h2 = ToolRun.of("scan", "--jdbc-url", H2_URL + ";USER=" + USER + ";PASSWORD=" + WRONG);
        assertDenied(h2, "scan", "jdbc:h2:mem:cks_secret as " + USER);
        assertNoSecret(h2, WRONG);
        DatabasePassword.prompt = user -> WRONG;
        ToolRun typed = ToolRun.of("scan", "--jdbc-url", H2_URL, "--user", USER);
        assertDenied(typed, "scan", "jdbc:h2:mem:cks_secret as " + USER);
        assertNoSecret(typed, WRONG);
        DatabasePassword.prompt = user -> RIGHT;
        ToolRun typedRight = ToolRun.of("scan", "--jdbc-url", H2_URL, "--user", USER);
        assertEquals(0, typedRight.code(), typedRight.err());
        assertNoSecret(typedRight, RIGHT);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Driver.class)
    void typedAtThePrompt(Driver driver) {
        DatabasePassword.prompt = user -> WRONG;
        ToolRun typed = ToolRun.of("scan", "--jdbc-url", driver.url(null, null), "--user", USER);
        assertDenied(typed, "scan", driver.scheme + "://" + ToolDatabase.server() + "/cloud as " + USER);
        assertNoSecret(typed, WRONG);
        DatabasePassword.prompt = user -> RIGHT;
        ToolRun right = ToolRun.of("explain", "nowhere", "--jdbc-url", driver.url(null, null), "--user", USER);
        assertEquals("cks-state explain: no Kubernetes cluster has the id, uuid or name 'nowhere'\n", right.err());
        assertNoSecret(right, RIGHT);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Driver.class)
    void inDbProperties(Driver driver) throws IOException {
        String[] hostPort = ToolDatabase.server().split(":");
        for (String password : new String[] {WRONG, RIGHT}) {
            Path props = Files.writeString(dir.resolve("db.properties"), "db.cloud.username=" + USER + "\n"
                    + "db.cloud.password=" + password + "\ndb.cloud.host=" + hostPort[0] + "\ndb.cloud.port=" + hostPort[1]
                    + "\ndb.cloud.name=cloud\ndb.cloud.driver=" + driver.scheme + "\ndb.cloud.encryption.type=none\n");
            ToolRun run = ToolRun.of("scan", "--db-properties", props.toString());
            assertNoSecret(run, password);
            if (password.equals(WRONG)) {
                assertDenied(run, "scan", driver.scheme + "://" + ToolDatabase.server() + "/cloud as " + USER);
            } else {
                assertEquals(0, run.code(), run.err());
            }
        }
    }

    /**
     * Connector/J's address=(...)(password=...) form, given as --jdbc-url and as db.cloud.uri in a
     * 0600 db.properties: the URL shown is scheme, host, port and database only.
     */
    @Test
    void inConnectorJsAddressForm() throws IOException {
        String[] hostPort = ToolDatabase.server().split(":");
        for (String password : new String[] {WRONG, RIGHT}) {
            String url = "jdbc:mysql://address=(host=" + hostPort[0] + ")(port=" + hostPort[1] + ")(user=" + USER
                    + ")(password=" + password + ")/cloud";
            Path props = Files.writeString(dir.resolve("db.properties"), "db.cloud.uri=" + url + "\n"
                    + "db.cloud.username=" + USER + "\ndb.cloud.password=" + password + "\ndb.cloud.encryption.type=none\n");
            Files.setPosixFilePermissions(props, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            for (ToolRun run : List.of(ToolRun.of("scan", "--jdbc-url", url), ToolRun.of("scan", "--db-properties",
                    props.toString()))) {
                assertNoSecret(run, password);
                if (password.equals(WRONG)) {
                    assertEquals(1, run.code(), run.out() + run.err());
                    assertTrue(run.err().startsWith("cks-state scan: connecting to jdbc:mysql://" + ToolDatabase.server()
                            + "/cloud"), run.err());
                    assertEquals(1, run.err().lines().count(), run.err());
                } else {
                    assertEquals(0, run.code(), run.err());
                }
            }
        }
    }

    /**
     * In an environment variable, through the tool's real main in its own JVM: the failure is one
     * line, and the MariaDB driver's own log line ("[ WARN] ... Error: 1045-28000") shows only with --verbose.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Driver.class)
    void inAnEnvironmentVariableThroughTheRealMain(Driver driver) throws Exception {
        String url = driver.url(null, null);
        String[] denied = child(WRONG, "scan", "--jdbc-url", url, "--user", USER, "--password-env", "CKS_TEST_DB_PASSWORD");
        assertEquals("1", denied[0], denied[2]);
        assertEquals("", denied[1]);
        assertEquals("cks-state scan: connecting to " + driver.scheme + "://" + ToolDatabase.server() + "/cloud as " + USER
                + ": access denied (wrong user or password)\n", denied[2]);
        String[] ok = child(RIGHT, "scan", "--jdbc-url", url, "--user", USER, "--password-env", "CKS_TEST_DB_PASSWORD");
        assertEquals("0", ok[0], ok[2]);
        assertFalse(ok[1].contains(RIGHT) || ok[2].contains(RIGHT), ok[1] + ok[2]);
        if (driver == Driver.MARIADB) {
            String[] verbose = child(WRONG, "scan", "--jdbc-url", url, "--user", USER, "--password-env",
                    "CKS_TEST_DB_PASSWORD", "--verbose");
            assertTrue(verbose[2].lines().count() > 1, "--verbose shows the driver's lines: " + verbose[2]);
            assertFalse(verbose[2].contains(WRONG), verbose[2]);
        }
    }

    /** exit code, stdout, stderr of the tool's main in a JVM of its own with the password in the environment. */
    private static String[] child(String password, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xcheck:jni", "-cp", System.getProperty("java.class.path"), CksStateCommand.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(Map.of("CKS_TEST_DB_PASSWORD", password));
        Path out = Files.createTempFile("cks-child", ".out");
        Path err = Files.createTempFile("cks-child", ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("the tool's JVM did not end within 120 s: " + Files.readString(err));
            }
            return new String[] {String.valueOf(p.exitValue()), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8)};
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void eachCauseIsPrintedOnceAndMasked() {
        Secrets.register("Mask-Me-8812");
        Exception chain = new IllegalStateException("reading: refused (Mask-Me-8812)",
                new SQLException("refused (Mask-Me-8812)", new RuntimeException("deeper")));
        assertEquals(List.of("reading: refused (****)", "deeper"), CksStateCommand.causes(chain));
        assertEquals("jdbc:mysql://h:1/cloud", Secrets.displayUrl("jdbc:mysql://u:pw@h:1/cloud?password=x"));
        // A password with the characters that end a host section elsewhere: never a piece of it shown.
        assertEquals("jdbc:mysql://db/cloud", Secrets.displayUrl("jdbc:mysql://cloud:se;cret@db/cloud"));
        assertEquals("jdbc:mysql://db:3306/cloud", Secrets.displayUrl("jdbc:mysql://cloud:a,b@db:3306/cloud"));
        assertEquals("jdbc:mysql://?/?", Secrets.displayUrl("jdbc:mysql://cloud:se/cret@db/cloud"));
        assertEquals("jdbc:mysql://?/?", Secrets.displayUrl("jdbc:mysql://cloud:p?ss@db/cloud"));
        assertEquals("jdbc:mariadb://[::1]:3306/cloud", Secrets.displayUrl("jdbc:mariadb://[::1]:3306/cloud?user=u&password=x"));
        assertEquals("jdbc:mysql://h:1,g:2/cloud", Secrets.displayUrl(
                "jdbc:mysql://address=(host=h)(port=1)(user=u)(password=pw1),(host=g,port=2,password=pw2)/cloud?x=1"));
        assertEquals("jdbc:mysql:loadbalance://h:1,g/cloud", Secrets.displayUrl("jdbc:mysql:loadbalance://u:pw@h:1,g/cloud"));
        assertEquals("jdbc:mysql://(password=****),(host=g,password=****)/c",
                Secrets.maskShapes("jdbc:mysql://(password=pw1),(host=g,password=pw2)/c"));
        assertEquals("x?user=a&password=****;PASSWORD=****", Secrets.mask("x?user=a&password=p1;PASSWORD=p2"));
    }
}
