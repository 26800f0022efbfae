// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scan and explain with the management server's own db.properties and driver (jdbc:mysql, MySQL
 * Connector/J) against the throwaway MariaDB server; bad settings are one line, never a secret.
 */
class DbPropertiesCliTest {
    private static final String SECRET = "S3cr3t-Pw-919";
    private static final String KEY = "a-management-key";

    @TempDir
    Path dir;

    /** host, port, database, user, password of the test server's MariaDB URL. */
    private static String[] server() {
        Matcher m = Pattern.compile("jdbc:mariadb://([^:/]+):(\\d+)/([^?]+)\\?user=([^&]+)&password=([^&]+)")
                .matcher(ToolDatabase.MARIADB.url());
        assertTrue(m.find(), "unexpected MariaDB URL shape");
        return new String[] {m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)};
    }

    /** V2 as the management server writes it: AES-256-GCM, key SHA-256(management key), Base64(IV | ciphertext | tag). */
    private static String encV2(String plain, String key) throws Exception {
        byte[] iv = new byte[12];
        new SecureRandom().nextBytes(iv);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(MessageDigest.getInstance("SHA-256")
                .digest(key.getBytes(StandardCharsets.UTF_8)), "AES"), new GCMParameterSpec(128, iv));
        byte[] ct = c.doFinal(plain.getBytes(StandardCharsets.UTF_8));
        byte[] all = new byte[iv.length + ct.length];
        System.arraycopy(iv, 0, all, 0, iv.length);
        System.arraycopy(ct, 0, all, iv.length, ct.length);
        return "ENC(" + Base64.getEncoder().encodeToString(all) + ")";
    }

    private Path dbProperties(String driver, String password, String encryption) throws Exception {
        String[] s = server();
        return Files.writeString(dir.resolve("db.properties"), "db.cloud.username=" + s[3] + "\n"
                + "db.cloud.password=" + password + "\n"
                + "db.cloud.host=" + s[0] + "\ndb.cloud.port=" + s[1] + "\ndb.cloud.name=" + s[2] + "\n"
                + "db.cloud.driver=" + driver + "\ndb.cloud.autoReconnect=true\n"
                + "db.cloud.url.params=prepStmtCacheSize=517&cachePrepStmts=true&sessionVariables=sql_mode="
                + "'STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'"
                + "&serverTimezone=UTC\n"
                + "db.cloud.encryption.type=" + encryption + "\n");
    }

    private static void assertOneCleanLine(ToolRun run, String expected) {
        assertEquals(1, run.code(), run.out() + run.err());
        assertEquals("", run.out());
        assertTrue(run.err().startsWith(expected), run.err());
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception:"), "no stack trace: " + run.err());
        assertFalse(run.err().contains(SECRET) || run.out().contains(SECRET), "the password leaked: " + run.err());
    }

    @Test
    void theServersOwnSettingsWithAnEncryptedPasswordReachTheDatabaseThroughConnectorJ() throws Exception {
        ToolDatabase.MARIADB.reset();
        String[] s = server();
        Path props = dbProperties("jdbc:mysql", encV2(s[4], KEY), "file");
        Files.writeString(dir.resolve("key"), KEY + "\n");
        ToolRun scan = ToolRun.of("scan", "--db-properties", props.toString());
        assertEquals(0, scan.code(), scan.err());
        assertEquals("mode: compat (auto: the schema has no fence columns)\n" + ToolDatabase.TABLE_LINE + ToolDatabase.JOBS_LINE
                + "no stuck Kubernetes cluster: none is in an operation's state\n", scan.out());
        ToolRun explain = ToolRun.of("explain", "nowhere", "--db-properties", props.toString());
        assertEquals(1, explain.code());
        assertEquals("cks-state explain: no Kubernetes cluster has the id, uuid or name 'nowhere'", explain.err().strip());
        // jdbc:mysql URLs work with --jdbc-url too.
        ToolRun byUrl = ToolRun.of("scan", "--jdbc-url", ToolDatabase.MARIADB.url().replaceFirst("^jdbc:mariadb:", "jdbc:mysql:"));
        assertEquals(0, byUrl.code(), byUrl.err());
    }

    @Test
    void badSettingsAreOneLineAndNeverShowThePassword() throws Exception {
        ToolDatabase.MARIADB.reset();
        Files.writeString(dir.resolve("key"), "not-" + KEY + "\n");
        assertOneCleanLine(ToolRun.of("scan", "--db-properties", dbProperties("jdbc:mysql", encV2(SECRET, KEY), "file")
                .toString()), "cks-state scan: cannot decrypt db.cloud.password: wrong management key");
        assertOneCleanLine(ToolRun.of("scan", "--db-properties", dbProperties("jdbc:mysql", SECRET, "none").toString()),
                "cks-state scan: ");
        assertOneCleanLine(ToolRun.of("explain", "1", "--db-properties", dbProperties("jdbc:mysql", SECRET, "none")
                .toString()), "cks-state explain: ");
        assertOneCleanLine(ToolRun.of("scan", "--db-properties", dbProperties("jdbc:postgresql", SECRET, "none")
                .toString()), "cks-state scan: no JDBC driver for jdbc:postgresql URLs");
        assertOneCleanLine(ToolRun.of("scan", "--db-properties", dbProperties("jdbc:mysql", encV2(SECRET, KEY), "web")
                .toString()), "cks-state scan: db.cloud.encryption.type=web: the management server receives its key");
        assertOneCleanLine(ToolRun.of("scan", "--db-properties", dir.resolve("missing.properties").toString()),
                "cks-state scan: --db-properties " + dir.resolve("missing.properties") + ": no such file");
        ToolRun both = ToolRun.of("scan", "--db-properties", "x", "--jdbc-url", "jdbc:h2:mem:x");
        assertEquals(2, both.code());
        assertEquals("cks-state scan: give either --jdbc-url or --db-properties, not both\ntry 'cks-state scan --help'\n",
                both.err());
    }

    /** db.cloud.password written ENC(...) with db.cloud.encryption.type none: used as written, and said so. */
    @Test
    void anEncValueReadWithoutEncryptionIsSaidToBeOne() throws Exception {
        ToolDatabase.MARIADB.reset();
        String enc = encV2(SECRET, KEY);
        ToolRun run = ToolRun.of("scan", "--db-properties", dbProperties("jdbc:mysql", enc, "none").toString());
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.err().contains(": note: ") && run.err().contains("db.cloud.password is written ENC(...) but"
                + " db.cloud.encryption.type is none"), run.err());
        assertTrue(run.err().contains("access denied"), "the ENC(...) text is the password the server would try: " + run.err());
        assertFalse(run.err().contains(enc) || run.err().contains(SECRET), run.err());
        String[] s = server();
        ToolRun plain = ToolRun.of("scan", "--db-properties", dbProperties("jdbc:mysql", s[4], "none").toString());
        assertEquals(0, plain.code(), plain.err());
        assertFalse(plain.err().contains("note:"), plain.err());
    }
}
