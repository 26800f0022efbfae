// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackEncryption;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobInsert;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** `cks-state explain` on H2 and MariaDB: every verdict, the jobs and servers it shows, JSON, bad names. */
class ExplainCommandTest {
    private static final String SCALE = ClusterCommandSet.SCALE;
    private static final String UPGRADE = ClusterCommandSet.UPGRADE;

    private final Map<String, Long> ids = new LinkedHashMap<>();

    /** A CloudManaged cluster "uuid-NAME", its id remembered by name. */
    private long cluster(Connection c, String name, String state) throws SQLException {
        long id = CloudStackRows.on(c).cluster(name, state);
        ids.put(name, id);
        return id;
    }

    private static long job(Connection c, String cmd, int status, Long instanceId, String cmdInfo, Integer resultCode,
            String result, long msid) throws SQLException {
        JobInsert job = CloudStackRows.on(c).job().cmd(cmd).status(status).cmdInfo(cmdInfo)
                .result(resultCode, result).msid(msid);
        return (instanceId == null ? job : job.cluster(instanceId)).insert();
    }

    private static void mshost(Connection c, long msid, String state, long runid) throws SQLException {
        CloudStackRows.on(c).mshost(msid, state, runid);
    }

    private static String state(ToolDatabase db, long id) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT state FROM kubernetes_cluster WHERE id = " + id)) {
            rs.next();
            return rs.getString(1).strip();
        }
    }

    private static ToolRun explain(ToolDatabase db, String... more) {
        String[] args = new String[3 + more.length];
        args[0] = "explain";
        args[1] = "--jdbc-url";
        args[2] = db.url();
        System.arraycopy(more, 0, args, 3, more.length);
        return ToolRun.of(args);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void eachVerdictWithItsReasonJobsAndServers(ToolDatabase db) throws SQLException {
        db.reset();
        long failedJob;
        long liveJob;
        try (Connection c = db.connect()) {
            mshost(c, 7001, "Down", 11);
            mshost(c, 7002, "Up", 22);
            long stuck = cluster(c, "stuck", "Scaling");
            // The scale's job was failed at the restart of its server (530), the cluster left in Scaling.
            failedJob = job(c, SCALE, 2, null, "{\"id\":\"uuid-stuck\",\"size\":\"3\"}", 530,
                    "job cancelled because of management server restart or shutdown", 7001);
            job(c, SCALE, 1, null, "{\"id\":\"uuid-other\",\"note\":\"uuid-stuck\"}", 0, null, 7002);
            long live = cluster(c, "live", "Upgrading");
            liveJob = job(c, UPGRADE, 0, live, "{}", null, null, 7002);
            cluster(c, "running", "Running");
            assertTrue(stuck > 0);
        }
        ToolRun stuck = explain(db, "stuck");
        assertEquals(0, stuck.code(), stuck.err());
        assertTrue(stuck.out().contains("state Scaling"), stuck.out());
        assertTrue(stuck.out().contains("  " + failedJob + " ScaleKubernetesClusterCmd FAILED result 530"
                + " \"job cancelled because of management server restart or shutdown\""), stuck.out());
        assertTrue(stuck.out().contains("(by job_cmd_info)"), stuck.out());
        assertEquals(1, stuck.out().lines().filter(l -> l.contains("Cmd ")).count(),
                "a job that carries the uuid under another parameter does not name it: " + stuck.out());
        assertTrue(stuck.out().contains("msid 7001 ms-7001 Down runid 11"), stuck.out());
        assertTrue(stuck.out().contains("verdict: RECOVER to Running: the compat scanner would move it Scaling -> Running"),
                stuck.out());
        assertEquals("Scaling", state(db, ids.get("stuck")), "explain writes nothing");

        ToolRun live = explain(db, String.valueOf(ids.get("live")));
        assertTrue(live.out().contains(liveJob + " UpgradeKubernetesClusterCmd IN_PROGRESS"), live.out());
        assertTrue(live.out().contains("(by instance_id)"), live.out());
        assertTrue(live.out().contains("verdict: LEAVE: the compat scanner leaves it: IN_PROGRESS job(s) [" + liveJob
                + "] name it"), live.out());

        ToolRun running = explain(db, "uuid-running");
        assertTrue(running.out().contains("verdict: LEAVE: the compat scanner leaves it: Running is not an operation's state"),
                running.out());

        // A job of unknown cluster (no instance_id, no uuid) makes the scanner wait for the stuck cluster.
        long unknown;
        try (Connection c = db.connect()) {
            unknown = job(c, SCALE, 0, null, "{\"size\":\"3\"}", null, null, 7002);
        }
        ToolRun waiting = explain(db, "stuck", "--format", "json");
        assertEquals(0, waiting.code(), waiting.err());
        assertTrue(waiting.out().contains("\"unknown_cluster_jobs\": [" + unknown + "]"), waiting.out());
        assertTrue(waiting.out().contains("\"verdict\": {\"kind\": \"wait\", \"to\": null, \"jobs\": [" + unknown + "]"),
                waiting.out());
        assertTrue(waiting.out().startsWith("{\"mode\": \"compat\", \"mode_chosen\": \"auto: the schema has no fence"
                + " columns\", " + ToolDatabase.TABLE_JSON + ", " + ToolDatabase.JOBS_JSON + ", \"cluster\": {\"id\": " + ids.get("stuck") + ", \"uuid\": \"uuid-stuck\""), waiting.out());
        assertEquals(1, waiting.out().lines().count(), "one JSON document");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void fencedModeShowsTheOwnerAndJudgesByIt(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            if (CloudStackSchema.fenceColumns(c) == CloudStackSchema.FenceColumns.NONE) {
                CloudStackSchema.migrateUp(c);
            }
            mshost(c, 8001, "Up", 5);
            long held = cluster(c, "held", "Scaling");
            long gone = cluster(c, "gone", "Scaling");
            try (Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE kubernetes_cluster SET state_version = 4, op_owner_msid = 8001, op_owner_runid = 5,"
                        + " op_job_id = 900 WHERE id = " + held);
                // Its owner's server restarted since (runid 4 is gone).
                st.executeUpdate("UPDATE kubernetes_cluster SET state_version = 2, op_owner_msid = 8001, op_owner_runid = 4,"
                        + " op_job_id = 901 WHERE id = " + gone);
            }
        }
        try {
            ToolRun held = explain(db, "held", "--mode", "fenced");
            assertEquals(0, held.code(), held.err());
            assertTrue(held.out().contains("state Scaling, version 4, owner msid 8001 runid 5 job 900"), held.out());
            assertTrue(held.out().contains("msid 8001 ms-8001 Up runid 5"), held.out());
            assertTrue(held.out().contains("verdict: LEAVE: the fenced scanner leaves it: it is held by a live owner"),
                    held.out());
            ToolRun gone = explain(db, "gone", "--mode", "fenced");
            assertTrue(gone.out().contains("verdict: RECOVER to Running: the fenced scanner would move it Scaling -> Running:"
                    + " the management server that owns its operation has restarted since [OWNER_RESTARTED]"), gone.out());
            ToolRun goneJson = explain(db, "gone", "--format", "json");
            assertTrue(goneJson.out().startsWith("{\"mode\": \"fenced\", \"mode_chosen\": \"auto: the schema has the fence"
                    + " columns\""), goneJson.out());
            assertTrue(goneJson.out().contains("\"reason_code\": \"OWNER_RESTARTED\""), goneJson.out());
        } finally {
            try (Connection c = db.connect()) {
                CloudStackSchema.migrateDown(c);
            }
        }
        ToolRun noColumns = explain(db, "held", "--mode", "fenced");
        assertEquals(1, noColumns.code());
        assertTrue(noColumns.err().startsWith("cks-state explain: --mode fenced: cloud.kubernetes.cluster.state.mode is 'fenced' but"
                + " kubernetes_cluster has none of the columns"), noColumns.err());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aNameForNoClusterOrSeveralIsOneClearLine(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            cluster(c, "twin", "Running");
            CloudStackRows.on(c).cluster("twin", "uuid-twin-2", "Stopped", false);
        }
        ToolRun none = explain(db, "nowhere");
        assertEquals(1, none.code());
        assertEquals("cks-state explain: no Kubernetes cluster has the id, uuid or name 'nowhere'", none.err().strip());
        ToolRun twins = explain(db, "twin");
        assertEquals(1, twins.code());
        assertTrue(twins.err().strip().matches("cks-state explain: the name 'twin' names 2 clusters that are not removed"
                + " \\[\\d+, \\d+\\]: give an id or uuid"), twins.err());
        assertEquals("", twins.out());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aNameReusedAfterADeletePicksTheLiveCluster(ToolDatabase db) throws SQLException {
        db.reset();
        long live;
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            rows.cluster("prod", "uuid-prod-old-1", "Destroyed", true);
            rows.cluster("prod", "uuid-prod-old-2", "Destroyed", true);
            live = rows.cluster("prod", "uuid-prod-now", "Scaling", false);
            rows.cluster("gone", "uuid-gone-1", "Destroyed", true);
            rows.cluster("gone", "uuid-gone-2", "Destroyed", true);
        }
        ToolRun prod = explain(db, "prod");
        assertEquals(0, prod.code(), prod.err());
        assertTrue(prod.out().contains("cluster " + live + " uuid-prod-now prod\n"), prod.out());
        ToolRun byUpperUuid = explain(db, "UUID-PROD-NOW");
        assertTrue(byUpperUuid.out().contains("cluster " + live + " uuid-prod-now prod\n"), byUpperUuid.out());
        ToolRun gone = explain(db, "gone");
        assertEquals(1, gone.code());
        assertTrue(gone.err().strip().matches("cks-state explain: no cluster named 'gone' is live, and 2 removed clusters"
                + " had the name \\(\\d+ removed [0-9-]+ [0-9:]+ UTC, \\d+ removed [0-9-]+ [0-9:]+ UTC\\): give an id or uuid"),
                gone.err());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void theJobsShownAreTheOnesTheScannerCounts(ToolDatabase db) throws SQLException {
        db.reset();
        long cluster;
        long upperCaseJob;
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            cluster = rows.cluster("mixed-case", "0f6c1a2b-aaaa-bbbb-cccc-9d2e00000001", "Scaling", false);
            // An older server left instance_id NULL and wrote the uuid in upper case: the scanner's
            // lookup compares uuids case-insensitively, so this live job keeps the cluster.
            upperCaseJob = rows.job().cmdInfo("{\"id\":\"0F6C1A2B-AAAA-BBBB-CCCC-9D2E00000001\",\"size\":\"3\"}").msid(7001)
                    .insert();
            // A job of another kind whose parameters carry the uuid names no cluster.
            rows.job().cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").instanceType("VirtualMachine")
                    .cmdInfo("{\"id\":\"0f6c1a2b-aaaa-bbbb-cccc-9d2e00000001\"}").insert();
        }
        ToolRun run = explain(db, "mixed-case");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("  " + upperCaseJob + " ScaleKubernetesClusterCmd IN_PROGRESS"), run.out());
        assertEquals(1, run.out().lines().filter(l -> l.contains("Cmd ")).count(), run.out());
        assertTrue(run.out().contains("verdict: LEAVE: the compat scanner leaves it: IN_PROGRESS job(s) [" + upperCaseJob
                + "] name it"), run.out());
        ToolRun scan = ToolRun.of("scan", "--jdbc-url", db.url());
        assertTrue(scan.out().contains("no stuck Kubernetes cluster"), "scan agrees with explain: " + scan.out());
        ToolRun json = explain(db, String.valueOf(cluster), "--format", "json");
        assertTrue(json.out().contains("\"verdict\": {\"kind\": \"leave\", \"to\": null, \"jobs\": [" + upperCaseJob + "]"),
                json.out());
    }

    /** explain N, where N is one cluster's id and another's name: the first, and a note naming the other. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void anIdThatIsAlsoAnotherClustersNameIsSaid(ToolDatabase db) throws SQLException {
        db.reset();
        long first;
        long namesake;
        try (Connection c = db.connect()) {
            first = cluster(c, "first", "Running");
            namesake = CloudStackRows.on(c).cluster(String.valueOf(first), "uuid-namesake", "Scaling", false);
        }
        ToolRun text = explain(db, String.valueOf(first));
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("note: the id or uuid given is also the name of cluster " + namesake
                + " uuid-namesake: explain that one by its uuid\ncluster " + first + " uuid-first first\n"), text.out());
        ToolRun json = explain(db, String.valueOf(first), "--format", "json");
        assertTrue(json.out().contains("\"namesakes\": [" + namesake + "]"), json.out());
        ToolRun byUuid = explain(db, "uuid-namesake");
        assertTrue(byUuid.out().contains("cluster " + namesake + " uuid-namesake " + first + "\n")
                && !byUuid.out().contains("note:"), byUuid.out());
    }
    /**
     * With CloudStack's database encryption on (4.22.1.1+), a sensitive job's job_result and job_cmd_info
     * are ciphertext: explain says "encrypted" and prints none of it, and a job whose parameters are
     * encrypted names no cluster (its instance_id still does).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void ciphertextIsNamedEncryptedAndNeverPrinted(ToolDatabase db) throws SQLException {
        db.reset();
        CloudStackEncryption keyFile = new CloudStackEncryption("key file text");
        String sealedResult = keyFile.encrypt("job cancelled because of management server restart or shutdown");
        String sealedParameters = keyFile.encrypt("{\"id\":\"uuid-stuck\",\"size\":\"3\"}");
        long byInstance;
        long byParameters;
        try (Connection c = db.connect()) {
            mshost(c, 7001, "Down", 11);
            long stuck = cluster(c, "stuck", "Scaling");
            byInstance = job(c, ClusterCommandSet.DELETE, 2, stuck, sealedParameters, 530, sealedResult, 7001);
            byParameters = job(c, SCALE, 2, null, sealedParameters, 530, sealedResult, 7001);
        }
        ToolRun text = explain(db, "stuck");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("  " + byInstance + " DeleteKubernetesClusterCmd FAILED result 530 encrypted, init msid 7001"),
                text.out());
        ToolRun json = explain(db, "stuck", "--format", "json");
        assertTrue(json.out().contains("\"result\": null, \"result_encrypted\": true"), json.out());
        for (ToolRun run : new ToolRun[] {text, json}) {
            assertTrue(!run.out().contains(sealedResult) && !run.out().contains(sealedParameters)
                    && !run.err().contains(sealedResult), run.out());
        }
        assertTrue(!text.out().contains("  " + byParameters + " "), "a job whose parameters are ciphertext names no cluster: "
                + text.out());
        assertTrue(!json.out().contains("{\"id\": " + byParameters + ","), json.out());
    }
}
