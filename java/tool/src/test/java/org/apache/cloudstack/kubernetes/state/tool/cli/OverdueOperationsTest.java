// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Live operations past CloudStack's time limit (apache/cloudstack#13544: Destroying for 25 hours
 * behind a hung job): scan and explain report them from CloudStack's own timeouts, in database
 * time, and never write them.
 */
class OverdueOperationsTest {
    private long scaling;
    private long upgrading;
    private long starting;
    private long destroying;
    private long removing;
    private long scalingJob;
    private long startingJob;
    private long destroyingJob;

    /** Live jobs of several ages; scale.timeout set to 600 s, upgrade.timeout's default raised to 7200 s. */
    private void build(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            rows.setting(OverdueOperations.SCALE_TIMEOUT, "600", "3600");
            rows.setting(OverdueOperations.UPGRADE_TIMEOUT, null, "7200");
            scaling = rows.cluster("scaling-late", "Scaling");
            scalingJob = rows.job().cluster(scaling).msid(7001).age(1200).insert();
            upgrading = rows.cluster("upgrading-in-time", "Upgrading");
            rows.job().cluster(upgrading).msid(7001).age(3700).insert();
            starting = rows.cluster("starting-late", "Starting");
            startingJob = rows.job().cluster(starting).msid(7002).age(3700).insert();
            destroying = rows.cluster("destroying-25h", "Destroying");
            destroyingJob = rows.job().cluster(destroying).msid(7002).age(90000).insert();
            removing = rows.cluster("removing-in-time", "RemovingNodes");
            rows.job().cluster(removing).msid(7002).age(200).insert();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void scanReportsEachOverdueOperationWithItsLimitAndWritesNothing(ToolDatabase db) throws SQLException {
        build(db);
        ToolRun json = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json", "--apply");
        assertEquals(0, json.code(), json.err());
        String overdue = json.out().substring(json.out().indexOf("\"overdue\": ["));
        assertEquals(3, overdue.split("\"job_id\"", -1).length - 1, overdue);
        assertEntry(overdue, scaling, "scaling-late", "Scaling", scalingJob, 7001, 1200, 600);
        assertEntry(overdue, starting, "starting-late", "Starting", startingJob, 7002, 3700, 3600);
        assertEntry(overdue, destroying, "destroying-25h", "Destroying", destroyingJob, 7002, 90000, 3600);
        assertTrue(json.out().contains("\"recoveries\": []"), "live jobs: nothing recovered: " + json.out());
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            for (long id : new long[] {scaling, upgrading, starting, destroying, removing}) {
                assertFalse(rows.state(id).equals("Alert"), "never written, even with --apply");
            }
        }
        ToolRun shorter = ToolRun.of("scan", "--jdbc-url", db.url(), "--overdue-after", "100");
        assertTrue(shorter.out().contains("removing-in-time: RemovingNodes, job "), shorter.out());
        assertTrue(shorter.out().contains("limit 100 s (--overdue-after)"), shorter.out());
        ToolRun text = ToolRun.of("scan", "--jdbc-url", db.url());
        assertTrue(text.out().contains("overdue: live operations past CloudStack's time limit (never written):\n"),
                text.out());
        // The ages are the database's: a second or two may pass between the insert and the scan.
        assertTrue(Pattern.compile(destroying + " uuid-destroying-25h destroying-25h: Destroying, job " + destroyingJob
                + " on msid 7002 has run 25 h 0 min \\(900[0-5]\\d s\\), limit 3600 s \\(--overdue-after\\)").matcher(text.out())
                .find(), text.out());
        assertTrue(Pattern.compile("scaling-late: Scaling, job " + scalingJob + " on msid 7001 has run 20 min \\d+ s"
                + " \\(12[0-5]\\d s\\), limit 600 s \\(" + Pattern.quote(OverdueOperations.SCALE_TIMEOUT) + "\\)")
                .matcher(text.out()).find(), text.out());
        assertTrue(text.out().contains("restarting that server fails its jobs"), text.out());
        ToolRun explain = ToolRun.of("explain", "destroying-25h", "--jdbc-url", db.url(), "--format", "json");
        assertEquals(0, explain.code(), explain.err());
        assertTrue(explain.out().contains("\"overdue\": [{\"id\": " + destroying + ", "), explain.out());
        ToolRun explainText = ToolRun.of("explain", "upgrading-in-time", "--jdbc-url", db.url());
        assertFalse(explainText.out().contains("overdue:"), explainText.out());
        ToolRun bad = ToolRun.of("scan", "--jdbc-url", db.url(), "--overdue-after", "0");
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("cks-state scan: --overdue-after must be positive\n"), bad.err());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void withoutAConfigurationTableTheDefaultsApply(ToolDatabase db) throws SQLException {
        build(db);
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE configuration RENAME TO configuration_aside");
        }
        try {
            ToolRun json = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
            assertEquals(0, json.code(), json.err());
            String overdue = json.out().substring(json.out().indexOf("\"overdue\": ["));
            assertEntry(overdue, upgrading, "upgrading-in-time", "Upgrading", -1, 7001, 3700, 3600);
            assertFalse(overdue.contains("scaling-late"), "1200 s is within the default 3600 s: " + overdue);
        } finally {
            try (Connection c = db.connect(); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE configuration_aside RENAME TO configuration");
            }
        }
    }

    private static void assertEntry(String json, long id, String name, String state, long jobId, long msid, long running,
            long timeout) {
        Matcher m = Pattern.compile("\\{\"id\": " + id + ", \"uuid\": \"uuid-" + name + "\", \"name\": \"" + name
                + "\", \"state\": \"" + state + "\", \"job_id\": (\\d+), \"msid\": " + msid
                + ", \"running_seconds\": (\\d+), \"timeout_seconds\": " + timeout + ", \"timeout_from\": \"[^\"]+\"}")
                .matcher(json);
        assertTrue(m.find(), name + " in " + json);
        if (jobId >= 0) {
            assertEquals(jobId, Long.parseLong(m.group(1)), json);
        }
        long seen = Long.parseLong(m.group(2));
        assertTrue(seen >= running && seen < running + 60, "database time: ran " + seen + " s, created " + running
                + " s ago: " + json);
    }
}
