// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * scan, explain and schema take the deployment's mode from its schema: a fenced deployment is never
 * scanned with compat rules unless asked, a mode the schema cannot run is one clear line, and the
 * schema command shows and migrates the mode (dry run unless --apply).
 */
class DeploymentModeTest {
    /** A cluster held by a live owner (server Up, same runid) whose job row the job GC has expunged. */
    private static long liveHeldClusterWithoutJob(Connection c) throws SQLException {
        CloudStackRows rows = CloudStackRows.on(c);
        rows.mshost(7001, "Up", 11);
        long id = rows.cluster("held-upgrading", "Upgrading");
        rows.hold(id, 3, 7001, 11, 4242);
        return id;
    }

    private static void migrated(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            CloudStackSchema.migrateDown(c);
            CloudStackSchema.migrateUp(c);
        }
    }

    private static void unmigrated(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            CloudStackSchema.migrateDown(c);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aFencedDeploymentIsScannedWithFencedRules(ToolDatabase db) throws SQLException {
        migrated(db);
        long held;
        long gone;
        try (Connection c = db.connect()) {
            held = liveHeldClusterWithoutJob(c);
            CloudStackRows rows = CloudStackRows.on(c);
            rows.mshost(7002, "Down", 5);
            gone = rows.cluster("owner-down", "Scaling");
            rows.hold(gone, 2, 7002, 5, 4343);
        }
        try {
            ToolRun auto = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
            assertEquals(0, auto.code(), auto.err());
            assertTrue(auto.out().startsWith("{\"mode\": \"fenced\", \"mode_chosen\": \"auto: the schema has the fence"
                    + " columns\""), auto.out());
            assertFalse(auto.out().contains("\"name\": \"held-upgrading\""), "a live operation is never planned: " + auto.out());
            assertTrue(auto.out().contains("\"id\": " + gone + ", \"uuid\": \"uuid-owner-down\", \"name\": \"owner-down\","
                    + " \"state\": \"Scaling\", \"to\": \"Running\", \"reason\": \"the management server that owns its"
                    + " operation is Down\", \"reason_code\": \"OWNER_DOWN\""), auto.out());
            ToolRun text = ToolRun.of("scan", "--jdbc-url", db.url());
            assertTrue(text.out().startsWith("mode: fenced (auto: the schema has the fence columns)\n"), text.out());
            assertTrue(text.out().contains("owner-down: Scaling -> Running: the management server that owns its operation"
                    + " is Down [OWNER_DOWN]"), text.out());

            // Asked for explicitly, compat plans the live cluster: the very thing fenced mode prevents.
            ToolRun compat = ToolRun.of("scan", "--jdbc-url", db.url(), "--mode", "compat");
            assertTrue(compat.out().startsWith("mode: compat (asked for, on a schema with the fence columns: fenced"
                    + " servers' holds are not honoured)"), compat.out());
            assertTrue(compat.out().contains("held-upgrading: Upgrading -> Alert"), compat.out());

            ToolRun applied = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply");
            assertEquals(0, applied.code(), applied.err());
            try (Connection c = db.connect()) {
                CloudStackRows rows = CloudStackRows.on(c);
                assertEquals("Upgrading", rows.state(held), "scan --apply leaves the live operation alone");
                assertEquals(ToolDatabase.FAILED_SCALE, rows.state(gone));
            }
            ToolRun explain = ToolRun.of("explain", "held-upgrading", "--jdbc-url", db.url());
            assertTrue(explain.out().startsWith("mode: fenced (auto: the schema has the fence columns)\n"), explain.out());
            assertTrue(explain.out().contains("verdict: LEAVE: the fenced scanner leaves it: it is held by a live owner"),
                    explain.out());
        } finally {
            unmigrated(db);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aModeTheSchemaCannotRunIsOneClearLine(ToolDatabase db) throws SQLException {
        unmigrated(db);
        for (String command : new String[] {"scan", "explain"}) {
            ToolRun run = command.equals("scan") ? ToolRun.of("scan", "--jdbc-url", db.url(), "--mode", "fenced")
                    : ToolRun.of("explain", "1", "--jdbc-url", db.url(), "--mode", "fenced");
            assertEquals(1, run.code(), run.out() + run.err());
            assertTrue(run.err().startsWith("cks-state " + command + ": --mode fenced: cloud.kubernetes.cluster.state.mode is 'fenced' but"
                    + " kubernetes_cluster has none of the columns [state_version, op_owner_msid, op_owner_runid,"
                    + " op_job_id]: run the migration first"), run.err());
            assertFalse(run.err().contains("Unknown column"), run.err());
            assertEquals(1, run.err().lines().count(), run.err());
        }
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE kubernetes_cluster ADD COLUMN state_version bigint NOT NULL DEFAULT 0");
        }
        try {
            ToolRun partial = ToolRun.of("scan", "--jdbc-url", db.url());
            assertEquals(1, partial.code(), partial.out());
            assertEquals("cks-state scan: --mode auto: kubernetes_cluster has the fence columns [state_version] of 4, no"
                    + " trigger " + CloudStackSchema.VERSION_TRIGGER + ": a fenced migration was cut short; finish it"
                    + " (cks-state schema --migrate fenced --apply) or undo it (cks-state schema --migrate compat --apply)\n",
                    partial.err());
            ToolRun schema = ToolRun.of("schema", "--jdbc-url", db.url(), "--format", "json");
            assertEquals("{\"mode\": \"partial\", \"trigger\": false, " + ToolDatabase.TABLE_JSON + "}\n", schema.out(),
                    schema.err());
            // The migration up completes it: the three missing columns and the trigger.
            ToolRun up = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "fenced");
            assertEquals(0, up.code(), up.err());
            assertFalse(up.out().contains("`state_version` bigint"), up.out());
            assertTrue(up.out().contains("`op_owner_msid` bigint") && up.out().contains("TRIGGER `"
                    + CloudStackSchema.VERSION_TRIGGER + "`") && up.out().contains("a migration was cut short"), up.out());
        } finally {
            unmigrated(db);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aSchemaOlderThanCloudStack419IsNamed(ToolDatabase db) throws SQLException {
        unmigrated(db);
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE kubernetes_cluster DROP COLUMN cluster_type");
        }
        try {
            ToolRun run = ToolRun.of("scan", "--jdbc-url", db.url());
            assertEquals(1, run.code(), run.out());
            assertEquals("cks-state scan: kubernetes_cluster has no cluster_type column: the schema is older than"
                    + " CloudStack 4.19, which the status scanner's rules need (upgrade CloudStack first)\n", run.err());
        } finally {
            try (Connection c = db.connect(); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE kubernetes_cluster ADD COLUMN cluster_type varchar(64) DEFAULT 'CloudManaged'");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void schemaShowsAndMigratesTheModeOnlyWithApply(ToolDatabase db) throws SQLException {
        unmigrated(db);
        try {
            assertEquals("mode: compat (kubernetes_cluster has none of the fence columns)\ntrigger: "
                    + CloudStackSchema.VERSION_TRIGGER + " absent\n" + ToolDatabase.TABLE_LINE,
                    ToolRun.of("schema", "--jdbc-url", db.url()).out());
            ToolRun dry = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "fenced");
            assertEquals(0, dry.code(), dry.err());
            assertTrue(dry.out().startsWith("would run (dry run; --apply to perform):\n  ALTER TABLE `kubernetes_cluster`"
                    + " ADD "), dry.out());
            assertTrue(dry.out().contains(" TRIGGER `" + CloudStackSchema.VERSION_TRIGGER + "`"), dry.out());
            assertTrue(dry.out().endsWith("mode: compat (kubernetes_cluster has none of the fence columns)\ntrigger: "
                    + CloudStackSchema.VERSION_TRIGGER + " absent\n" + ToolDatabase.TABLE_LINE),
                    "a dry run changes nothing: " + dry.out());
            try (Connection c = db.connect()) {
                assertEquals(CloudStackSchema.FenceColumns.NONE, CloudStackSchema.fenceColumns(c));
            }
            ToolRun up = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "fenced", "--apply", "--definer",
                    "cks@127.0.0.1", "--format", "json");
            assertEquals(0, up.code(), up.err());
            assertTrue(up.out().startsWith("{\"mode\": \"fenced\", \"trigger\": true, " + ToolDatabase.TABLE_JSON
                    + (db == ToolDatabase.H2 ? "" : ", \"definer\": \"'cks'@'127.0.0.1'\"")
                    + ", \"migration\": \"fenced\", \"applied\": true, \"statements\": [\"ALTER TABLE"), up.out());
            assertEquals("{\"mode\": \"fenced\", \"trigger\": true, " + ToolDatabase.TABLE_JSON + "}\n",
                    ToolRun.of("schema", "--jdbc-url", db.url(), "--format", "json").out());
            ToolRun again = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "fenced");
            assertFalse(again.out().contains("ALTER TABLE"), "only the trigger is (re)created: " + again.out());
            ToolRun downDry = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "compat");
            assertTrue(downDry.out().contains("DROP TRIGGER `" + CloudStackSchema.VERSION_TRIGGER + "`;\n  ALTER TABLE"
                    + " `kubernetes_cluster` DROP COLUMN `state_version`,") && downDry.out().contains("`op_job_id`;"),
                    downDry.out());
            try (Connection c = db.connect()) {
                assertEquals(CloudStackSchema.FenceColumns.ALL, CloudStackSchema.fenceColumns(c), "dry run");
            }
            ToolRun down = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "compat", "--apply");
            assertEquals(0, down.code(), down.err());
            assertTrue(down.out().startsWith("ran:\n"), down.out());
            try (Connection c = db.connect()) {
                assertEquals(CloudStackSchema.FenceColumns.NONE, CloudStackSchema.fenceColumns(c));
                assertFalse(CloudStackSchema.hasVersionTrigger(c));
            }
            ToolRun noMigration = ToolRun.of("schema", "--jdbc-url", db.url(), "--apply");
            assertEquals(2, noMigration.code());
            assertTrue(noMigration.err().startsWith("cks-state schema: --apply goes with --migrate"), noMigration.err());
        } finally {
            unmigrated(db);
        }
    }

    /** The deployment's cluster.heartbeat.threshold judges a silent owner: 20 s is alive by default, gone past 10 s. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void theDeploymentsHeartbeatThresholdJudgesOwners(ToolDatabase db) throws SQLException {
        migrated(db);
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            rows.mshost(7003).state("Up").runid(21).heartbeatAge(20).insert();
            long id = rows.cluster("silent-owner", "Upgrading");
            rows.hold(id, 4, 7003, 21, 4444);
        }
        ToolRun byDefault = ToolRun.of("scan", "--jdbc-url", db.url());
        assertEquals(0, byDefault.code(), byDefault.err());
        assertFalse(byDefault.out().contains("silent-owner"), byDefault.out());
        try (Connection c = db.connect()) {
            CloudStackRows.on(c).setting("cluster.heartbeat.threshold", "10000", "150000");
        }
        ToolRun shorter = ToolRun.of("scan", "--jdbc-url", db.url());
        assertTrue(shorter.out().contains("silent-owner: Upgrading -> Alert") && shorter.out().contains("[HEARTBEAT_STALE]"),
                shorter.out());
        ToolRun explain = ToolRun.of("explain", "--jdbc-url", db.url(), "silent-owner");
        assertTrue(explain.out().contains("HEARTBEAT_STALE"), explain.out());
    }

    /**
     * The fence stays while the deployment is configured fenced (its servers would not start without
     * it): --migrate compat --apply refuses, naming the way; the dry run shows; the explicit option
     * goes ahead.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void compatIsRefusedWhileTheDeploymentIsConfiguredFenced(ToolDatabase db) throws SQLException {
        migrated(db);
        try (Connection c = db.connect()) {
            CloudStackRows.on(c).setting(org.apache.cloudstack.kubernetes.state.StateMode.CONFIG_KEY, "fenced", "compat");
        }
        try {
            ToolRun refused = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "compat", "--apply");
            assertEquals(1, refused.code(), refused.out() + refused.err());
            assertTrue(refused.err().startsWith("cks-state schema: --migrate compat --apply refused, nothing changed:"
                    + " cloud.kubernetes.cluster.state.mode is 'fenced'") && refused.err().contains("--even-if-configured-fenced"),
                    refused.err());
            assertStage(db, org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration.Stage.FENCED);
            ToolRun dry = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "compat");
            assertEquals(0, dry.code(), dry.err());
            ToolRun forced = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "compat", "--apply",
                    "--even-if-configured-fenced");
            assertEquals(0, forced.code(), forced.err());
            assertStage(db, org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration.Stage.COMPAT);
        } finally {
            unmigrated(db);
        }
    }

    /** On MariaDB, --apply with --jdbc-url needs the trigger's definer named; named, it is the trigger's. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ToolDatabase.class, names = {"MARIADB", "CONNECTOR_J"})
    void theTriggersDefinerIsCloudStacksAccount(ToolDatabase db) throws SQLException {
        unmigrated(db);
        try {
            ToolRun unnamed = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "fenced", "--apply");
            assertEquals(1, unnamed.code(), unnamed.out() + unnamed.err());
            assertTrue(unnamed.err().contains("--definer") && unnamed.err().contains("nothing changed"), unnamed.err());
            assertStage(db, org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration.Stage.COMPAT);
            ToolRun named = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "fenced", "--apply", "--definer",
                    "cks@127.0.0.1", "--format", "json");
            assertEquals(0, named.code(), named.err());
            assertTrue(named.out().contains("\"definer\": \"'cks'@'127.0.0.1'\""), named.out());
            try (Connection c = db.connect(); Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(
                    "SELECT DEFINER FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()")) {
                assertTrue(rs.next());
                assertEquals("cks@127.0.0.1", rs.getString(1));
            }
            ToolRun bad = ToolRun.of("schema", "--jdbc-url", db.url(), "--migrate", "fenced", "--definer", "cks");
            assertEquals(2, bad.code(), bad.err());
            assertTrue(bad.err().contains("is not a database account"), bad.err());
        } finally {
            unmigrated(db);
        }
    }

    private static void assertStage(ToolDatabase db, org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration.Stage stage)
            throws SQLException {
        try (Connection c = db.connect()) {
            assertEquals(stage, org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration.stage(c));
        }
    }
}
