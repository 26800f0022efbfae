// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.dbprops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** db.properties read as the management server reads it: keys, precedence, URL, encryption types. */
class CloudDbPropertiesTest {
    static final String V2_SECRET = "ENC(iYVsCZXiGiC6SzZLMNBvBL93hoUpntxkuRjyaqC8L+JYKXw=)"; // "encthis"
    static final String FRESH_INSTALL = "db.cloud.username=cloud\n"
            + "db.cloud.host=db.example\ndb.cloud.port=3306\ndb.cloud.name=cloud\ndb.cloud.driver=jdbc:mysql\n"
            + "db.cloud.autoReconnect=true\n"
            + "db.cloud.url.params=prepStmtCacheSize=517&cachePrepStmts=true&sessionVariables=sql_mode='STRICT_TRANS_TABLES,"
            + "NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'&serverTimezone=UTC\n";

    @TempDir
    Path dir;

    private Path props(String text) throws IOException {
        return Files.writeString(dir.resolve("db.properties"), text);
    }

    private DbSettings read(String text, Map<String, String> env) throws Exception {
        return CloudDbProperties.read(props(text), null, env);
    }

    @Test
    void aFreshInstallAssemblesTheServersUrl() throws Exception {
        DbSettings s = read(FRESH_INSTALL + "db.cloud.password=plain\ndb.cloud.encryption.type=none\n", Map.of());
        assertEquals("jdbc:mysql://db.example:3306/cloud?autoReconnect=true&prepStmtCacheSize=517&cachePrepStmts=true"
                + "&sessionVariables=sql_mode='STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
                + "NO_ENGINE_SUBSTITUTION'&serverTimezone=UTC", s.url());
        assertEquals("cloud", s.user());
        assertEquals("plain", s.password());
        assertFalse(s.toString().contains("plain"), s.toString());
    }

    /** The server's HA URL (TransactionLegacy): host list, the port once, the HA parameters after url.params and useSSL. */
    @Test
    void databaseHaAsTheServerBuildsIt() throws Exception {
        String base = "db.cloud.host=db1\ndb.cloud.port=3306\ndb.cloud.name=cloud\ndb.cloud.driver=jdbc:mysql\n"
                + "db.cloud.autoReconnect=true\ndb.cloud.url.params=a=1\ndb.cloud.useSSL=true\n"
                + "db.cloud.failOverReadOnly=false\ndb.cloud.reconnectAtTxEnd=true\ndb.cloud.autoReconnectForPools=true\n"
                + "db.cloud.secondsBeforeRetrySource=3600\ndb.cloud.queriesBeforeRetrySource=5000\n"
                + "db.cloud.initialTimeout=3600\ndb.ha.loadBalanceStrategy=com.cloud.utils.db.StaticStrategy\n";
        String query = "?autoReconnect=true&a=1&useSSL=true&failOverReadOnly=false&reconnectAtTxEnd=true"
                + "&autoReconnectForPools=true&secondsBeforeRetrySource=3600&queriesBeforeRetrySource=5000&initialTimeout=3600";
        DbSettings ha = read(base + "db.ha.enabled=true\ndb.cloud.replicas=db2,db3:3307\n", Map.of());
        assertEquals("jdbc:mysql://db1,db2,db3:3307:3306/cloud" + query, ha.url());
        assertEquals(List.of("jdbc:mysql://db1:3306/cloud" + query, "jdbc:mysql://db2:3306/cloud" + query,
                "jdbc:mysql://db3:3307/cloud" + query), ha.connectUrls(), "the source, then each replica");
        DbSettings slaves = read(base + "db.ha.enabled=true\ndb.cloud.slaves=old\n", Map.of());
        assertEquals("jdbc:mysql://db1,old:3306/cloud" + query, slaves.url(), "the older key name");
        DbSettings off = read(base + "db.ha.enabled=false\ndb.cloud.replicas=db2\n", Map.of());
        assertEquals("jdbc:mysql://db1:3306/cloud?autoReconnect=true&a=1&useSSL=true", off.url());
        assertEquals(List.of(off.url()), off.connectUrls());
        DbSettingsException none = assertThrows(DbSettingsException.class,
                () -> read(base + "db.ha.enabled=true\n", Map.of()));
        assertEquals("db.ha.enabled=true but db.properties names no replica (db.cloud.replicas)", none.getMessage());
    }

    @Test
    void theUrlsOtherShapes() throws Exception {
        String base = "db.cloud.host=h\ndb.cloud.port=1\ndb.cloud.name=n\ndb.cloud.driver=jdbc:mariadb\n";
        assertEquals("jdbc:mariadb://h:1/n?autoReconnect=false", read(base, Map.of()).url(), "autoReconnect missing = false");
        assertEquals("jdbc:mariadb://h:1/n?autoReconnect=false&", read(base + "db.cloud.url.params=\n", Map.of()).url(),
                "url.params present, even empty: '&' + it");
        assertEquals("jdbc:mariadb://h:1/n?autoReconnect=false&useSSL=true", read(base + "db.cloud.useSSL=true\n",
                Map.of()).url());
        assertEquals("jdbc:mysql://other:3306/cloud?x=1", read(base + "db.cloud.uri=jdbc:mysql://other:3306/cloud?x=1\n",
                Map.of()).url(), "db.cloud.uri wins and is used as written");
        DbSettingsException missing = assertThrows(DbSettingsException.class, () -> read("db.cloud.host=h\n", Map.of()));
        assertEquals("db.properties has neither db.cloud.uri nor db.cloud.driver", missing.getMessage());
    }

    @Test
    void encryptionTypesFindTheKeyAsTheServerDoes() throws Exception {
        String enc = FRESH_INSTALL + "db.cloud.password=" + V2_SECRET + "\n";
        Files.writeString(dir.resolve("key"), "managementkey\n");
        assertEquals("encthis", read(enc + "db.cloud.encryption.type=file\n", Map.of()).password());
        assertEquals("encthis", read(enc + "db.cloud.encryption.type=env\n",
                Map.of(CloudDbProperties.KEY_ENV, "managementkey")).password());
        Path keyFile = Files.writeString(dir.resolve("other-key"), "managementkey");
        assertEquals("encthis", CloudDbProperties.read(props(enc + "db.cloud.encryption.type=web\n"), keyFile, Map.of())
                .password(), "--key-file serves where the server got its key over the network");
        assertEquals(V2_SECRET, read(enc + "db.cloud.encryption.type=none\n", Map.of()).password(),
                "encryption off: nothing is decrypted");
    }

    @Test
    void badSettingsAreOneClearLineWithoutTheSecret() throws Exception {
        String enc = FRESH_INSTALL + "db.cloud.password=" + V2_SECRET + "\n";
        assertMessage(() -> read(enc + "db.cloud.encryption.type=web\n", Map.of()),
                "db.cloud.encryption.type=web: the management server receives its key over port 8097 at start, which a"
                        + " tool cannot do; give the key with --key-file");
        assertMessage(() -> read(enc + "db.cloud.encryption.type=vault\n", Map.of()),
                "db.cloud.encryption.type=vault is not supported (none, file, env or web)");
        assertMessage(() -> read(enc + "db.cloud.encryption.type=env\n", Map.of()),
                "db.cloud.encryption.type=env: the environment variable CLOUD_SECRET_KEY is not set (or give --key-file)");
        assertMessage(() -> read(enc + "db.cloud.encryption.type=file\n", Map.of()),
                "db.cloud.encryption.type=file: no key file " + dir.resolve("key") + " (give the management key's file"
                        + " with --key-file)");
        Files.writeString(dir.resolve("key"), "not-the-key\n");
        assertMessage(() -> read(enc + "db.cloud.encryption.type=file\n", Map.of()),
                "cannot decrypt db.cloud.password: wrong management key, or not a value CloudStack encrypted (tried V2"
                        + " AES-256-GCM and V1 jasypt PBEWithMD5AndDES)");
        assertMessage(() -> CloudDbProperties.read(dir.resolve("nowhere.properties"), null, Map.of()),
                "--db-properties " + dir.resolve("nowhere.properties") + ": no such file");
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable read, String expected) {
        DbSettingsException e = assertThrows(DbSettingsException.class, read);
        assertEquals(expected, e.getMessage());
        assertTrue(!e.getMessage().contains("encthis") && !e.getMessage().contains("managementkey"), e.getMessage());
    }
}
