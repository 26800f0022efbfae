// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackEncryption;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** `cks-state scan` against a database built from the schema with clusters stuck in every way. */
class ScanCommandTest {
    private static final String[] OPERATION_STATES = {"Starting", "Stopping", "Scaling", "ScalingStoppedCluster",
        "Upgrading", "Importing", "RemovingNodes", "Recovering"};
    private static final String CMD = ClusterCommandSet.SCALE;

    /** Cluster name -> id of the database built by {@link #build}. */
    private final Map<String, Long> ids = new LinkedHashMap<>();

    private long cluster(Connection c, String name, String state, String type, boolean removed) throws SQLException {
        long id = CloudStackRows.on(c).cluster(state).name(name).uuid("uuid-" + name).type(type).removed(removed).insert();
        ids.put(name, id);
        return id;
    }

    private static void job(Connection c, int status, Long instanceId, String cmdInfo, boolean removed)
            throws SQLException {
        CloudStackRows.on(c).job().cmd(CMD).status(status).instance(instanceId).cmdInfo(cmdInfo).removed(removed).insert();
    }

    /** Stuck clusters of every operation state, and every kind of cluster the scan must leave alone. */
    private void build(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            for (String state : OPERATION_STATES) {
                cluster(c, "stuck-" + state, state, "CloudManaged", false);
            }
            // A finished job (soft-deleted, as CloudStack leaves it) does not keep a cluster alive.
            job(c, 2, ids.get("stuck-Importing"), "{\"id\":\"uuid-stuck-Importing\"}", true);
            job(c, 0, cluster(c, "live-by-id", "Scaling", "CloudManaged", false), "{}", false);
            cluster(c, "live-by-uuid", "Upgrading", "CloudManaged", false);
            job(c, 0, null, "{\"id\":\"uuid-live-by-uuid\",\"nodeids\":[\"x\"]}", false);
            cluster(c, "live-removed-job-row", "RemovingNodes", "CloudManaged", false);
            job(c, 0, ids.get("live-removed-job-row"), "{}", true);
            cluster(c, "removed", "Scaling", "CloudManaged", true);
            cluster(c, "external", "Scaling", "ExternalManaged", false);
            cluster(c, "running", "Running", "CloudManaged", false);
            cluster(c, "alert", "Alert", "CloudManaged", false);
        }
    }

    private List<String> recoveredNames(String json) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("\"name\": \"([^\"]+)\", \"state\": \"(\\w+)\", \"to\": \"(\\w+)\"").matcher(json);
        while (m.find()) {
            // CloudStack's table fails an add or removal of nodes back to Running, the others to Alert.
            assertEquals(failedTo(m.group(2)), m.group(3), json);
            assertEquals("stuck-" + m.group(2), m.group(1), json);
            names.add(m.group(1));
        }
        return names;
    }

    private static String failedTo(String state) {
        if (state.equals("Scaling")) {
            return ToolDatabase.FAILED_SCALE;
        }
        return state.equals("Importing") || state.equals("RemovingNodes") ? "Running" : "Alert";
    }

    private static Map<String, String> states(ToolDatabase db) throws SQLException {
        return db.statesByName();
    }

    private static List<String> expectedNames() {
        List<String> names = new ArrayList<>();
        for (String s : OPERATION_STATES) {
            names.add("stuck-" + s);
        }
        return names;
    }

    @ParameterizedTest(name = "{0} dry run lists every stuck cluster and changes nothing")
    @EnumSource(ToolDatabase.class)
    void dryRunListsTheStuckClustersOnly(ToolDatabase db) throws Exception {
        build(db);
        Map<String, String> before = states(db);
        ToolRun run = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().startsWith("{\"mode\": \"compat\", \"mode_chosen\": \"auto: the schema has no fence columns\", "
                + ToolDatabase.TABLE_JSON + ", " + ToolDatabase.JOBS_JSON + ", \"waiting\": false"), run.out());
        assertEquals(expectedNames(), recoveredNames(run.out()));
        assertTrue(!run.out().contains("\"applied\""), run.out());
        assertEquals(OPERATION_STATES.length, run.out().split("\"reason\": \"no IN_PROGRESS job names it, and no job of"
                + " unknown cluster runs\", \"reason_code\": \"NO_OWNER_NO_JOB\"", -1).length - 1, run.out());
        assertTrue(run.out().endsWith(", \"overdue\": [], \"departed_server_jobs\": []}\n"), run.out());
        assertEquals(before, states(db));
        ToolRun text = ToolRun.of("scan", "--jdbc-url", db.url());
        assertTrue(text.out().startsWith("mode: compat (auto: the schema has no fence columns)\n" + ToolDatabase.TABLE_LINE + ToolDatabase.JOBS_LINE
                + "would recover (dry run; --apply to perform):\n"), text.out());
        assertTrue(text.out().contains(ids.get("stuck-Scaling") + " uuid-stuck-Scaling stuck-Scaling: Scaling -> Running:"
                + " no IN_PROGRESS job names it, and no job of unknown cluster runs [NO_OWNER_NO_JOB]\n"), text.out());
        assertEquals(before, states(db));
    }

    @ParameterizedTest(name = "{0} --apply recovers them; a second --apply finds nothing")
    @EnumSource(ToolDatabase.class)
    void applyTwice(ToolDatabase db) throws Exception {
        build(db);
        ToolRun first = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json", "--apply");
        assertEquals(0, first.code(), first.err());
        assertEquals(expectedNames(), recoveredNames(first.out()));
        assertEquals(OPERATION_STATES.length, first.out().split("\"applied\": true", -1).length - 1, first.out());
        Map<String, String> after = states(db);
        for (String s : OPERATION_STATES) {
            assertEquals(failedTo(s), after.get("stuck-" + s), s);
        }
        assertEquals("Scaling", after.get("live-by-id"));
        assertEquals("Upgrading", after.get("live-by-uuid"));
        assertEquals("RemovingNodes", after.get("live-removed-job-row"));
        assertEquals("Scaling", after.get("removed"));
        assertEquals("Scaling", after.get("external"));
        ToolRun second = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply");
        assertEquals("mode: compat (auto: the schema has no fence columns)\n" + ToolDatabase.TABLE_LINE + ToolDatabase.JOBS_LINE
                + "no stuck Kubernetes cluster: 3 cluster(s) in an operation's state, left alone: each has a live operation"
                + " (an IN_PROGRESS job names it)\n", second.out());
    }

    @ParameterizedTest(name = "{0} a live job of every release's shape keeps its cluster; scan and explain agree")
    @EnumSource(ToolDatabase.class)
    void aLiveJobOfEveryShapeKeepsItsCluster(ToolDatabase db) throws Exception {
        db.reset();
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            rows.mshost(7001, "Up", 1);
            for (JobShape shape : JobShape.values()) {
                List<String> commands = List.of(ClusterCommandSet.SCALE, ClusterCommandSet.UPGRADE, ClusterCommandSet.REMOVE_NODES);
                for (String cmd : commands) {
                    String name = "shape" + shape.ordinal() + "-cmd" + commands.indexOf(cmd);
                    long id = cluster(c, name, "Scaling", "CloudManaged", false);
                    ids.put(name + "-job", rows.job().shape(shape).cmd(cmd).cluster(id, "uuid-" + name).msid(7001).insert());
                }
            }
            cluster(c, "stuck", "Scaling", "CloudManaged", false);
        }
        ToolRun scan = ToolRun.of("scan", "--jdbc-url", db.url());
        assertEquals(0, scan.code(), scan.err());
        assertEquals(1, scan.out().lines().filter(l -> l.contains(": Scaling -> Running:")).count(), scan.out());
        assertTrue(scan.out().contains("uuid-stuck stuck: Scaling -> Running"), scan.out());
        for (String name : ids.keySet().stream().filter(n -> n.endsWith("-job")).toList()) {
            String cluster = name.substring(0, name.length() - "-job".length());
            ToolRun explain = ToolRun.of("explain", "--jdbc-url", db.url(), cluster);
            assertTrue(explain.out().contains("  " + ids.get(name) + " "), explain.out());
            assertTrue(explain.out().contains("verdict: LEAVE: the compat scanner leaves it: IN_PROGRESS job(s) ["
                    + ids.get(name) + "] name it"), explain.out());
        }
    }

    @ParameterizedTest(name = "{0} a job of unknown cluster (malformed job_cmd_info) makes the scan wait")
    @EnumSource(ToolDatabase.class)
    void unknownClusterJobWaits(ToolDatabase db) throws Exception {
        build(db);
        try (Connection c = db.connect()) {
            job(c, 0, null, "{\"id\": ", false);
        }
        ToolRun run = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json", "--apply");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("\"waiting\": true"), run.out());
        assertEquals(List.of(), recoveredNames(run.out()));
        assertEquals("Starting", states(db).get("stuck-Starting"));
    }

    @ParameterizedTest(name = "{0} a job whose job_cmd_info is ciphertext makes the scan wait, named encrypted, never printed")
    @EnumSource(ToolDatabase.class)
    void encryptedJobWaitsNamedEncrypted(ToolDatabase db) throws Exception {
        build(db);
        String sealed = new CloudStackEncryption("key file text").encrypt("{\"id\":\"uuid-stuck-Scaling\",\"size\":\"3\"}");
        long sealedJob;
        long plainJob;
        try (Connection c = db.connect()) {
            sealedJob = CloudStackRows.on(c).job().cmd(CMD).status(0).instance(null).cmdInfo(sealed).insert();
            plainJob = CloudStackRows.on(c).job().cmd(CMD).status(0).instance(null).cmdInfo("{\"id\": ").insert();
        }
        ToolRun text = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("waiting: IN_PROGRESS Kubernetes cluster job(s) [" + sealedJob + ", " + plainJob
                + "] of unknown cluster (job_cmd_info encrypted: [" + sealedJob + "]): recovering nothing now"), text.out());
        ToolRun json = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
        assertTrue(json.out().contains("\"encrypted_jobs\": [" + sealedJob + "]"), json.out());
        for (ToolRun run : new ToolRun[] {text, json}) {
            assertTrue(!run.out().contains(sealed) && !run.err().contains(sealed), run.out() + run.err());
        }
        assertEquals("Scaling", states(db).get("stuck-Scaling"), "no cluster is taken from ciphertext");
    }

    @Test
    void anUnreachableDatabaseIsOneClearLineAndExitOne() {
        ToolRun run = ToolRun.of("scan", "--jdbc-url", "jdbc:mariadb://127.0.0.1:1/cloud?connectTimeout=2000");
        assertEquals(1, run.code());
        assertTrue(run.err().startsWith("cks-state scan: connecting to jdbc:mariadb://127.0.0.1:1/cloud: cannot reach the"
                + " database server ("), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        ToolRun ipv6 = ToolRun.of("scan", "--jdbc-url", "jdbc:mariadb://[::1:3407/cloud");
        assertEquals("cks-state scan: connecting to jdbc:mariadb://?/cloud: the driver cannot read this URL"
                + " (StringIndexOutOfBoundsException)\n", ipv6.err());
    }

    @Test
    void badOptionsGiveAClearMessageAndExitTwo() {
        System.setProperty(DatabaseOptions.DEFAULT_FILE_PROPERTY, "/nonexistent/db.properties");
        try {
            ToolRun missing = ToolRun.of("scan");
            assertEquals(2, missing.code());
            assertEquals("cks-state scan: give --jdbc-url or --db-properties (there is no /nonexistent/db.properties on"
                    + " this machine)\ntry 'cks-state scan --help'\n", missing.err());
        } finally {
            System.clearProperty(DatabaseOptions.DEFAULT_FILE_PROPERTY);
        }
        ToolRun env = ToolRun.of("scan", "--jdbc-url", ToolDatabase.H2.url(), "--user", "sa", "--password-env",
                "CKS_NO_SUCH_VARIABLE_Y");
        assertEquals(2, env.code());
        assertTrue(env.err().contains("CKS_NO_SUCH_VARIABLE_Y is not set"), env.err());
        ToolRun prompt = ToolRun.of("scan", "--jdbc-url", ToolDatabase.H2.url(), "--user", "sa");
        assertEquals(2, prompt.code());
        assertTrue(prompt.err().contains("--password-env"), prompt.err());
        ToolRun format = ToolRun.of("scan", "--jdbc-url", ToolDatabase.H2.url(), "--format", "yaml");
        assertEquals(2, format.code());
    }
}
