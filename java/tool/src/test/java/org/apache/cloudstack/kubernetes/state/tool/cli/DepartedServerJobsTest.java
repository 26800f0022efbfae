// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.Profile;
import org.apache.cloudstack.kubernetes.state.tool.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.tool.settings.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The jobs of management servers that never come back (CloudStack's onManagementNodeLeft fails
 * them by the wrong id): scan and explain list them, and scan --fail-departed-jobs --apply ends
 * their Kubernetes cluster jobs as cleanupLeftOverJobs does at that server's start, after which the
 * recovery pass recovers their clusters. Never a job of a server that is Up with a fresh heartbeat,
 * even a removed one.
 */
class DepartedServerJobsTest {
    private static final long UP = 7001;
    private static final long DOWN = 7002;
    private static final long REMOVED = 7003;
    private static final long SILENT = 7004;
    private static final long QUIET = 7005;
    private static final long UP_REMOVED = 7006;
    /** Says Up, silent 10 minutes: its scale job was created 4 minutes after that last heartbeat. */
    private static final long STALLED = 7007;
    private static final long UNKNOWN_SERVER = 7999;

    private long scalingOld;
    private long upgradingSilent;
    private long startingRemoved;
    private long scalingLive;
    private long scalingQuiet;
    private long stoppingQueued;
    private long stoppingElsewhere;
    private long stoppingUnknownServer;
    private long oldJob;
    private long silentJob;
    private long removedJob;
    private long initOnlyJob;
    private long vmJob;
    private long liveJob;
    private long quietJob;
    private long executedElsewhereJob;
    private long noServerRowJob;
    private long upRemovedJob;
    private long scalingUpRemoved;
    private long scalingStalled;
    private long stalledJob;

    /** Five servers (Up, Down, removed, silent 200 s, quiet 20 s) and IN_PROGRESS jobs on each. */
    private void build(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            rows.mshost(UP).state("Up").runid(11).insert();
            rows.mshost(DOWN).state("Down").runid(12).heartbeatAge(4000).insert();
            rows.mshost(REMOVED).state("ReadyToShutDown").runid(13).heartbeatAge(30).removed(true).insert();
            // Up and beating: never gone, whatever else the row says.
            rows.mshost(UP_REMOVED).state("Up").runid(16).heartbeatAge(5).removed(true).insert();
            rows.mshost(SILENT).state("Up").runid(14).heartbeatAge(200).insert();
            rows.mshost(QUIET).state("Up").runid(15).heartbeatAge(20).insert();
            rows.mshost(STALLED).state("Up").runid(17).heartbeatAge(600).insert();
            // A 4.19.0 server's scale: instance_type 'None', the cluster only in job_cmd_info.
            scalingOld = rows.cluster("scaling-old-server", "Scaling");
            oldJob = rows.job().shape(JobShape.BEFORE_4_19_1).cluster(scalingOld, "uuid-scaling-old-server")
                    .msid(DOWN).age(4100).insert(); // past the scale timeout, but no live operation: not overdue
            upgradingSilent = rows.cluster("upgrading-silent", "Upgrading");
            silentJob = rows.job().cmd(ClusterCommandSet.UPGRADE).cluster(upgradingSilent, "uuid-upgrading-silent")
                    .msid(SILENT).age(300).insert();
            startingRemoved = rows.cluster("starting-removed", "Starting");
            removedJob = rows.job().cmd(ClusterCommandSet.START).cluster(startingRemoved, "uuid-starting-removed")
                    .msid(REMOVED).age(60).insert();
            // Queued by the Down server, never picked up: job_executing_msid NULL, job_init_msid counts.
            stoppingQueued = rows.cluster("stopping-queued", "Stopping");
            initOnlyJob = rows.job().cmd(ClusterCommandSet.STOP).cluster(stoppingQueued, "uuid-stopping-queued")
                    .msids(DOWN, null).age(4100).insert();
            vmJob = rows.job().cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").instanceType("VirtualMachine")
                    .instance(99L).msid(DOWN).insert();
            scalingLive = rows.cluster("scaling-live", "Scaling");
            liveJob = rows.job().cluster(scalingLive, "uuid-scaling-live").msid(UP).insert();
            scalingUpRemoved = rows.cluster("scaling-up-removed", "Scaling");
            upRemovedJob = rows.job().cluster(scalingUpRemoved, "uuid-scaling-up-removed").msid(UP_REMOVED).insert();
            scalingQuiet = rows.cluster("scaling-quiet", "Scaling");
            quietJob = rows.job().cluster(scalingQuiet, "uuid-scaling-quiet").msid(QUIET).insert();
            // Queued on the Down server, run by the Up one: its executing server counts.
            stoppingElsewhere = rows.cluster("stopping-elsewhere", "Stopping");
            executedElsewhereJob = rows.job().cmd(ClusterCommandSet.STOP).cluster(stoppingElsewhere, "uuid-stopping-elsewhere")
                    .msids(DOWN, UP).insert();
            // A server mshost does not show proves nothing.
            stoppingUnknownServer = rows.cluster("stopping-unknown-server", "Stopping");
            noServerRowJob = rows.job().cmd(ClusterCommandSet.STOP)
                    .cluster(stoppingUnknownServer, "uuid-stopping-unknown-server").msid(UNKNOWN_SERVER).insert();
            // Created 360 s ago, its server's last heartbeat 600 s ago: the server was alive when it made it.
            scalingStalled = rows.cluster("scaling-stalled", "Scaling");
            stalledJob = rows.job().cluster(scalingStalled, "uuid-scaling-stalled").msid(STALLED).age(360).insert();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void scanListsTheJobsOfDepartedServersOnly(ToolDatabase db) throws SQLException {
        build(db);
        ToolRun text = ToolRun.of("scan", "--jdbc-url", db.url());
        assertEquals(0, text.code(), text.err());
        String section = text.out().substring(text.out().indexOf("departed_server_jobs:"));
        for (long job : List.of(oldJob, silentJob, removedJob, initOnlyJob, vmJob, stalledJob)) {
            assertTrue(section.contains("  job " + job + " "), job + " listed: " + section);
        }
        for (long job : List.of(liveJob, quietJob, executedElsewhereJob, noServerRowJob, upRemovedJob)) {
            assertFalse(section.contains("  job " + job + " "), job + " not listed: " + section);
        }
        assertTrue(section.contains("job " + oldJob + " ScaleKubernetesClusterCmd, Kubernetes cluster " + scalingOld
                + ", created "), section);
        assertTrue(java.util.regex.Pattern.compile("job " + oldJob + " [^\\n]*, created \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d"
                + " UTC; msid [^\\n]* \\(Down, last heartbeat \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC, ").matcher(section).find(),
                "times carry their zone: " + section);
        assertTrue(section.contains("msid " + DOWN + " ms-" + DOWN + ": mshost shows it Down (Down, last heartbeat "), section);
        assertTrue(section.contains("job " + vmJob + " StartVMCmd, not a Kubernetes cluster job"), section);
        assertTrue(section.contains("msid " + SILENT + " ms-" + SILENT + ": mshost still shows it Up, but it has sent no"
                + " heartbeat for longer than cluster.heartbeat.threshold: it may be stalled rather than gone (Up, last"
                + " heartbeat "), section);
        assertTrue(section.contains("may be stalled (a long garbage") && section.contains("--include-silent-up --apply"),
                "a row that says Up gets its own advice: " + section);
        assertTrue(section.contains("msid " + REMOVED + " ms-" + REMOVED + ": its mshost row is removed"), section);
        assertTrue(section.contains("cks-state scan --fail-departed-jobs --apply"), section);
        // Compat: the live-looking jobs keep their clusters; nothing is recovered yet.
        assertTrue(text.out().contains("no stuck Kubernetes cluster"), text.out());
        assertFalse(text.out().contains("overdue:"), "a departed server's job is no live overdue operation: " + text.out());

        ToolRun json = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
        String departed = json.out().substring(json.out().indexOf("\"departed_server_jobs\": ["));
        assertTrue(departed.contains("{\"job_id\": " + oldJob + ", \"job_uuid\": \""), departed);
        assertTrue(departed.contains("\"command\": \"" + ClusterCommandSet.SCALE + "\", \"cluster_job\": true, \"cluster_id\": "
                + scalingOld + ", \"created\": \""), departed);
        assertTrue(departed.contains("\"msid\": " + DOWN + ", \"server_name\": \"ms-" + DOWN + "\", \"server_state\": \"Down\""),
                departed);
        assertTrue(departed.contains("\"why_code\": \"DOWN\", \"action\": \"listed\"}"), departed);
        assertTrue(departed.contains("\"cluster_job\": false, \"cluster_id\": null"), departed);
        assertEquals(6, departed.split("\"job_id\"", -1).length - 1, departed);
        assertTrue(departed.contains("\"why_code\": \"SILENT_UP\""), departed);

        ToolRun explain = ToolRun.of("explain", "--jdbc-url", db.url(), "scaling-old-server");
        assertTrue(explain.out().contains("departed_server_jobs:") && explain.out().contains("  job " + oldJob + " "),
                explain.out());
        assertFalse(explain.out().contains("overdue:"), explain.out());
        assertFalse(explain.out().contains("  job " + silentJob + " "), "another cluster's job: " + explain.out());
        ToolRun explainLive = ToolRun.of("explain", "--jdbc-url", db.url(), "scaling-live");
        assertFalse(explainLive.out().contains("departed_server_jobs:"), explainLive.out());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void failDepartedJobsIsADryRunWithoutApply(ToolDatabase db) throws SQLException {
        build(db);
        ToolRun dry = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs");
        assertEquals(0, dry.code(), dry.err());
        assertTrue(dry.out().contains("  job " + oldJob + " ") && dry.out().contains(": would fail (dry run; --apply to perform)"),
                dry.out());
        try (Connection c = db.connect()) {
            assertEquals(0, count(c, "SELECT COUNT(*) FROM async_job WHERE job_status <> 0"), "nothing written");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void applyFailsThemAsTheirServersStartWouldAndTheClustersAreRecovered(ToolDatabase db) throws SQLException {
        build(db);
        ToolRun run = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs", "--apply");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("  job " + oldJob + " ") && run.out().contains(": failed (530)"), run.out());
        assertTrue(run.out().contains("  job " + vmJob + " StartVMCmd, not a Kubernetes cluster job")
                && run.out().contains(": left: not a Kubernetes cluster job: its server's start also cleans up its resources"), run.out());
        try (Connection c = db.connect()) {
            for (long job : List.of(oldJob, removedJob, initOnlyJob)) {
                long msid = job == removedJob ? REMOVED : DOWN;
                assertEquals(1, count(c, "SELECT COUNT(*) FROM async_job WHERE id = " + job + " AND job_status = 2"
                        + " AND job_result_code = 530 AND job_result = '" + DepartedServerJobs.RESULT + "'"
                        + " AND job_complete_msid = " + msid + " AND removed IS NOT NULL AND last_updated IS NOT NULL"),
                        "job " + job + " failed as cleanupLeftOverJobs fails it");
            }
            // Not a cluster job: left to its server's start, which also cleans up its VM.
            // A row that says Up waits for --include-silent-up; a job newer than its server's heartbeat is never failed.
            for (long job : List.of(liveJob, quietJob, executedElsewhereJob, noServerRowJob, upRemovedJob, vmJob, silentJob,
                    stalledJob)) {
                assertEquals(1, count(c, "SELECT COUNT(*) FROM async_job WHERE id = " + job + " AND job_status = 0"
                        + " AND job_complete_msid IS NULL AND removed IS NULL"), "job " + job + " untouched");
            }
            CloudStackRows rows = CloudStackRows.on(c);
            // The recovery pass of the same run sees them ended.
            assertEquals(ToolDatabase.FAILED_SCALE, rows.state(scalingOld));
            assertEquals("Upgrading", rows.state(upgradingSilent));
            assertEquals("Scaling", rows.state(scalingStalled));
            assertEquals("Alert", rows.state(startingRemoved));
            assertEquals("Alert", rows.state(stoppingQueued));
            assertEquals("Scaling", rows.state(scalingLive));
            assertEquals("Scaling", rows.state(scalingQuiet));
            assertEquals("Scaling", rows.state(scalingUpRemoved));
            assertEquals("Stopping", rows.state(stoppingElsewhere));
            assertEquals("Stopping", rows.state(stoppingUnknownServer));
        }
        assertTrue(run.out().contains("  job " + silentJob + " ") && run.out().contains(": left: its server's row says Up"),
                run.out());
        ToolRun again = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs", "--apply");
        assertTrue(again.out().contains("  job " + vmJob + " ") && !again.out().contains("  job " + oldJob + " "),
                "only the jobs left: " + again.out());
        ToolRun silentToo = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs", "--include-silent-up",
                "--apply");
        assertEquals(0, silentToo.code(), silentToo.err());
        try (Connection c = db.connect()) {
            assertEquals(1, count(c, "SELECT COUNT(*) FROM async_job WHERE id = " + silentJob + " AND job_status = 2"
                    + " AND job_result_code = 530 AND job_complete_msid = " + SILENT), "the opt-in fails a silent Up row's job");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM async_job WHERE id = " + stalledJob + " AND job_status = 0"),
                    "never a job created after its server's last heartbeat");
            assertEquals("Alert", CloudStackRows.on(c).state(upgradingSilent));
            assertEquals("Scaling", CloudStackRows.on(c).state(scalingStalled));
        }
    }

    /**
     * The trial's case: a server whose row says Up, silent 10 minutes, and its scale job created 4
     * minutes after that heartbeat (the server was alive then). Listed with its own wording and never
     * failed, even with --include-silent-up; no advice to start a server that may be running.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aJobNewerThanItsServersLastHeartbeatIsNeverFailed(ToolDatabase db) throws SQLException {
        db.reset();
        long cluster;
        long job;
        long sameSecond;
        long sameSecondJob;
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            rows.mshost(STALLED).state("Up").runid(17).heartbeatAge(600).insert();
            cluster = rows.cluster("scaling-stalled", "Scaling");
            job = rows.job().cluster(cluster, "uuid-scaling-stalled").msid(STALLED).age(360).insert();
            // 2 s before that heartbeat: within the clocks' margin (whole seconds, two servers' clocks).
            sameSecond = rows.cluster("stopping-stalled", "Stopping");
            sameSecondJob = rows.job().cmd(ClusterCommandSet.STOP).cluster(sameSecond, "uuid-stopping-stalled").msid(STALLED)
                    .age(602).insert();
        }
        ToolRun listed = ToolRun.of("scan", "--jdbc-url", db.url());
        assertEquals(0, listed.code(), listed.err());
        assertTrue(listed.out().contains("  job " + job + " ") && listed.out().contains("mshost still shows it Up")
                && listed.out().contains("never failed: created after its server's last heartbeat"), listed.out());
        assertFalse(listed.out().contains("Start that management server again"), listed.out());
        assertTrue(listed.out().contains("no stuck Kubernetes cluster: 2 cluster(s) in an operation's state, left alone"),
                listed.out());
        ToolRun applied = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs", "--include-silent-up", "--apply");
        assertEquals(0, applied.code(), applied.err());
        assertTrue(applied.out().contains(": left: created after its server's last heartbeat: the server was alive then"),
                applied.out());
        try (Connection c = db.connect()) {
            assertEquals(2, count(c, "SELECT COUNT(*) FROM async_job WHERE id IN (" + job + ", " + sameSecondJob
                    + ") AND job_status = 0"));
            assertEquals("Scaling", CloudStackRows.on(c).state(cluster));
            assertEquals("Stopping", CloudStackRows.on(c).state(sameSecond));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void theHeartbeatThresholdIsTheDeployments(ToolDatabase db) throws SQLException {
        build(db);
        try (Connection c = db.connect()) {
            CloudStackRows.on(c).setting(CloudStackConfiguration.HEARTBEAT_THRESHOLD, "10000", "150000");
        }
        ToolRun run = ToolRun.of("scan", "--jdbc-url", db.url());
        assertTrue(run.out().contains("  job " + quietJob + " "), "silent 20 s, past 10 s: " + run.out());
        assertFalse(run.out().contains("  job " + liveJob + " "), run.out());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aServerBackOrAJobEndedBeforeTheWriteIsMissedAndLeft(ToolDatabase db) throws SQLException {
        build(db);
        DepartedServerJobs departed = new DepartedServerJobs(ClusterCommandSet.ofReleaseLine(Profile.CLOUDSTACK_4_22), CloudStackConfiguration.DEFAULT_HEARTBEAT_THRESHOLD_MILLIS, true);
        List<DepartedServerJobs.Job> found;
        try (Connection c = db.connect()) {
            found = departed.find(c);
            try (Statement st = c.createStatement()) {
                // The silent server beats again, the Down server's old job ends on its own.
                st.executeUpdate("UPDATE mshost SET last_update = " + org.apache.cloudstack.kubernetes.state.sql.DatabaseClock
                        .utcNow(c) + " WHERE msid = " + SILENT);
                st.executeUpdate("UPDATE async_job SET job_status = 1 WHERE id = " + oldJob);
            }
        }
        List<DepartedServerJobs.Outcome> outcomes = departed.fail(db::connect, found);
        assertEquals(found.size(), outcomes.size(), "an outcome for every job found");
        assertEquals(6, outcomes.size(), outcomes.toString());
        for (DepartedServerJobs.Outcome o : outcomes) {
            long job = o.job().jobId();
            if (job == silentJob) {
                assertEquals("its management server is back", o.missed());
            } else if (job == oldJob) {
                assertEquals("the job has ended, or its server has beaten since it was created", o.missed());
            } else if (job == vmJob) {
                assertEquals(DepartedServerJobs.NOT_A_CLUSTER_JOB, o.missed());
            } else if (job == stalledJob) {
                assertTrue(o.left() && o.missed().startsWith("created after its server's last heartbeat"), o.toString());
            } else {
                assertTrue(o.failed(), o.toString());
            }
        }
        try (Connection c = db.connect()) {
            assertEquals(1, count(c, "SELECT COUNT(*) FROM async_job WHERE id = " + silentJob + " AND job_status = 0"));
            assertEquals(1, count(c, "SELECT COUNT(*) FROM async_job WHERE id = " + oldJob + " AND job_status = 1"
                    + " AND job_result_code = 0"), "an ended job is left as it ended");
            assertEquals(2, count(c, "SELECT COUNT(*) FROM async_job WHERE id IN (" + removedJob + ", " + initOnlyJob
                    + ") AND job_status = 2 AND job_result_code = 530"), "the others failed");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM async_job WHERE id = " + vmJob + " AND job_status = 0"));
        }
    }

    /** CloudStack's own database: the failed job's sync queue item goes and its queue shrinks. */
    @Test
    void theJobsSyncQueueItemIsPurged() throws SQLException {
        ToolDatabase db = ToolDatabase.MARIADB;
        build(db);
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO sync_queue (id, sync_objtype, sync_objid, queue_proc_number, created, last_updated,"
                    + " queue_size, queue_size_limit) VALUES (901, 'KubernetesCluster', " + scalingOld + ", 1, UTC_TIMESTAMP(),"
                    + " UTC_TIMESTAMP(), 2, 1)");
            st.executeUpdate("INSERT INTO sync_queue_item (queue_id, content_type, content_id, queue_proc_msid,"
                    + " queue_proc_number, created) VALUES (901, 'AsyncJob', " + oldJob + ", " + DOWN + ", 1, UTC_TIMESTAMP())");
            st.executeUpdate("INSERT INTO sync_queue_item (queue_id, content_type, content_id, created)"
                    + " VALUES (901, 'AsyncJob', " + liveJob + ", UTC_TIMESTAMP())");
        }
        ToolRun run = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs", "--apply");
        assertEquals(0, run.code(), run.err());
        try (Connection c = db.connect()) {
            assertEquals(0, count(c, "SELECT COUNT(*) FROM sync_queue_item WHERE content_id = " + oldJob));
            assertEquals(1, count(c, "SELECT COUNT(*) FROM sync_queue_item WHERE content_id = " + liveJob));
            assertEquals(1, count(c, "SELECT queue_size FROM sync_queue WHERE id = 901"), "the active item left the queue");
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
