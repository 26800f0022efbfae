// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fenced migration on MariaDB with the binary log on, as CloudStack's install guide sets it:
 * CloudStack's own account (every privilege on its database, not SUPER) cannot create the trigger,
 * and the migration then changes nothing and says what is missing; run by a database administrator
 * it names CloudStack's account as the trigger's definer, so that dropping the administrator's
 * account later leaves CloudStack's writes working.
 */
class FencedMigrationPrivilegesTest {
    /** The administrator scripts/mariadb.sh creates. */
    private static final String DBA = "user=cksdba&password=Dba-S3cret-2290";
    /** CloudStack's account in these tests: as scripts/mariadb.sh grants it, all on `cloud` only. */
    private static final String CLOUDSTACK_ACCOUNT = "'cks'@'127.0.0.1'";
    private static final String TEMPORARY_DBA = "cks_tmp_dba";

    private final Databases.Db db = Databases.mariadb();

    private Connection as(String credentials) throws SQLException {
        return DriverManager.getConnection(db.url().replaceFirst("user=[^&]*&password=[^&]*", credentials));
    }

    private void trustFunctionCreators(boolean on) throws SQLException {
        try (Connection c = as(DBA); Statement st = c.createStatement()) {
            st.execute("SET GLOBAL log_bin_trust_function_creators = " + (on ? 1 : 0));
        }
    }

    @BeforeEach
    void withoutTrust() throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            FencedMigration.migrateDown(c);
            assertEquals("ON", variable(c, "log_bin"), "the test server runs with the binary log on");
        }
        trustFunctionCreators(false);
    }

    @AfterEach
    void trustAgain() throws SQLException {
        trustFunctionCreators(true);
        try (Connection c = as(DBA); Statement st = c.createStatement()) {
            st.execute("DROP USER IF EXISTS '" + TEMPORARY_DBA + "'@'127.0.0.1'");
            FencedMigration.migrateDown(c);
        }
    }

    private static String variable(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@GLOBAL." + name)) {
            rs.next();
            String v = rs.getString(1);
            return "1".equals(v) ? "ON" : "0".equals(v) ? "OFF" : v;
        }
    }

    @Test
    void cloudStacksOwnAccountChangesNothingAndIsToldWhatIsMissing() throws SQLException {
        long cluster = new Fixtures(db).cluster(State.Running);
        try (Connection c = db.connect()) {
            FencedMigration.Refused refused = assertThrows(FencedMigration.Refused.class,
                    () -> FencedMigration.migrateUp(c, CLOUDSTACK_ACCOUNT));
            assertTrue(refused.getMessage().contains("changed nothing") && refused.getMessage().contains("SUPER")
                    && refused.getMessage().contains("log_bin_trust_function_creators"), refused.getMessage());
            assertEquals(FencedMigration.Stage.COMPAT, FencedMigration.stage(c), "no column was added");
            assertFalse(CloudStackSchema.tableExists(c, TriggerAccess.PROBE_TABLE), "the scratch table is gone");
        }
        assertEquals(State.Running, new Fixtures(db).state(cluster));
        // An administrator migrates. Undoing it needs the same privilege (dropping a trigger too, with the
        // binary log on): CloudStack's account is refused and nothing changes; the administrator undoes it.
        try (Connection c = as(DBA)) {
            FencedMigration.migrateUp(c, CLOUDSTACK_ACCOUNT);
            assertEquals(FencedMigration.Stage.FENCED, FencedMigration.stage(c));
        }
        try (Connection c = db.connect()) {
            FencedMigration.Refused refused = assertThrows(FencedMigration.Refused.class, () -> FencedMigration.migrateDown(c));
            assertTrue(refused.getMessage().contains("changed nothing") && refused.getMessage().contains("dropping the trigger")
                    && refused.getMessage().contains("log_bin_trust_function_creators"), refused.getMessage());
            assertEquals(FencedMigration.Stage.FENCED, FencedMigration.stage(c));
        }
        try (Connection c = as(DBA)) {
            FencedMigration.migrateDown(c);
            assertEquals(FencedMigration.Stage.COMPAT, FencedMigration.stage(c));
        }
        assertEquals(State.Running, new Fixtures(db).state(cluster));
    }

    @Test
    void theAdministratorsAccountCanBeDroppedAndCloudStacksWritesStillWork() throws SQLException {
        long cluster = new Fixtures(db).cluster(State.Running);
        try (Connection c = as(DBA); Statement st = c.createStatement()) {
            st.execute("CREATE USER '" + TEMPORARY_DBA + "'@'127.0.0.1' IDENTIFIED BY 'Tmp-Dba-7715'");
            st.execute("GRANT ALL PRIVILEGES ON *.* TO '" + TEMPORARY_DBA + "'@'127.0.0.1'");
        }
        String temporary = "user=" + TEMPORARY_DBA + "&password=Tmp-Dba-7715";
        try (Connection c = as(temporary)) {
            FencedMigration.migrateUp(c, CLOUDSTACK_ACCOUNT);
            assertEquals(FencedMigration.Stage.FENCED, FencedMigration.stage(c));
        }
        assertEquals("cks@127.0.0.1", definer());
        dropTemporaryDba();
        assertEquals(1, cloudStackStateWrite(cluster), "CloudStack's blind write, as its DAO makes it");

        // The failure the definer avoids: the same migration with the administrator as definer.
        try (Connection c = as(DBA)) {
            FencedMigration.migrateDown(c);
        }
        try (Connection c = as(DBA); Statement st = c.createStatement()) {
            st.execute("CREATE USER '" + TEMPORARY_DBA + "'@'127.0.0.1' IDENTIFIED BY 'Tmp-Dba-7715'");
            st.execute("GRANT ALL PRIVILEGES ON *.* TO '" + TEMPORARY_DBA + "'@'127.0.0.1'");
        }
        try (Connection c = as(temporary)) {
            FencedMigration.migrateUp(c, null);
        }
        assertEquals(TEMPORARY_DBA + "@127.0.0.1", definer());
        dropTemporaryDba();
        SQLException orphaned = assertThrows(SQLException.class, () -> cloudStackStateWrite(cluster));
        assertEquals(1449, orphaned.getErrorCode(), orphaned.getMessage());
    }

    private String definer() throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT DEFINER FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = '"
                        + CloudStackSchema.VERSION_TRIGGER + "'")) {
            assertTrue(rs.next(), "the trigger exists");
            return rs.getString(1);
        }
    }

    private void dropTemporaryDba() throws SQLException {
        try (Connection c = as(DBA); Statement st = c.createStatement()) {
            st.execute("DROP USER '" + TEMPORARY_DBA + "'@'127.0.0.1'");
        }
    }

    /** {@code UPDATE kubernetes_cluster SET state = ... WHERE id = ?} as CloudStack's account. */
    private int cloudStackStateWrite(long cluster) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            return st.executeUpdate("UPDATE kubernetes_cluster SET state = 'Stopping' WHERE id = " + cluster);
        }
    }
}
