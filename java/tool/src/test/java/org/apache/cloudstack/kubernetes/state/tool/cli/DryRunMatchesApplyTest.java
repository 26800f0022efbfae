// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the operator is shown is what --apply does: the same command with and without --apply, on
 * the same database, lists the same changes (the trial found a dry run that announced two
 * recoveries where --apply made three, and one that said "no stuck cluster" where --apply moved two).
 */
class DryRunMatchesApplyTest {
    private static final long DOWN = 7102;
    private static final long UP = 7101;

    /**
     * Clusters stuck with no job, stuck behind a job of a server Down since before the job was created
     * (its last heartbeat 4,000 s ago), live, and a removal of nodes left behind.
     */
    private static void build(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            rows.mshost(UP).state("Up").runid(21).insert();
            rows.mshost(DOWN).state("Down").runid(22).heartbeatAge(4000).insert();
            rows.cluster("starting-no-job", "Starting");
            rows.cluster("removing-nodes-no-job", "RemovingNodes");
            long behindDeparted = rows.cluster("scaling-departed", "Scaling");
            rows.job().cluster(behindDeparted, "uuid-scaling-departed").msid(DOWN).age(5000).insert();
            long stoppingDeparted = rows.cluster("stopping-departed", "Stopping");
            rows.job().cmd(ClusterCommandSet.STOP).cluster(stoppingDeparted, "uuid-stopping-departed").msid(DOWN).age(4500).insert();
            long live = rows.cluster("scaling-live", "Scaling");
            rows.job().cluster(live, "uuid-scaling-live").msid(UP).insert();
            rows.cluster("running", "Running");
        }
    }

    /** Cluster id to target state: the recoveries of a JSON report (a dry run's, or those --apply made). */
    private static Map<Long, String> recoveries(String json, boolean applied) {
        String section = json.substring(json.indexOf("\"recoveries\": ["), json.indexOf("], \"overdue\""));
        Map<Long, String> out = new TreeMap<>();
        Matcher m = Pattern.compile("\\{\"id\": (\\d+), .*?\"to\": \"(\\w+)\".*?\\}").matcher(section);
        while (m.find()) {
            assertEquals(applied, m.group(0).contains("\"applied\": true"), m.group(0));
            out.put(Long.parseLong(m.group(1)), m.group(2));
        }
        return out;
    }

    /** The departed servers' job ids a JSON report gives {@code action}. */
    private static TreeSet<Long> departedJobs(String json, String action) {
        TreeSet<Long> out = new TreeSet<>();
        Matcher m = Pattern.compile("\\{\"job_id\": (\\d+), [^}]*\"action\": \"" + action + "\"").matcher(json);
        while (m.find()) {
            out.add(Long.parseLong(m.group(1)));
        }
        return out;
    }

    private static Map<Long, String> states(ToolDatabase db, Iterable<Long> ids) throws SQLException {
        Map<Long, String> out = new TreeMap<>();
        try (Connection c = db.connect()) {
            for (long id : ids) {
                out.put(id, CloudStackRows.on(c).state(id));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void failDepartedJobsDoesWhatItsDryRunListed(ToolDatabase db) throws SQLException {
        build(db);
        ToolRun dry = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs", "--format", "json");
        assertEquals(0, dry.code(), dry.err());
        Map<Long, String> shown = recoveries(dry.out(), false);
        TreeSet<Long> wouldFail = departedJobs(dry.out(), "would_fail");
        assertEquals(4, shown.size(), "two stuck alone, two behind the Down server's jobs: " + dry.out());
        assertEquals(2, wouldFail.size(), dry.out());
        ToolRun text = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs");
        assertTrue(text.out().contains("would recover (dry run; --apply to perform), once the departed servers' jobs below"
                + " are failed:"), text.out());
        assertTrue(text.out().contains("removing-nodes-no-job: RemovingNodes -> Running"), text.out());
        assertEquals(new TreeSet<>(java.util.List.of("RemovingNodes", "Scaling", "Starting", "Stopping")),
                new TreeSet<>(states(db, shown.keySet()).values()), "the dry run wrote nothing");

        ToolRun apply = ToolRun.of("scan", "--jdbc-url", db.url(), "--fail-departed-jobs", "--apply", "--format", "json");
        assertEquals(0, apply.code(), apply.err());
        assertEquals(wouldFail, departedJobs(apply.out(), "failed"), apply.out());
        assertEquals(shown, recoveries(apply.out(), true), apply.out());
        assertEquals(shown, states(db, shown.keySet()), "each cluster where the dry run said");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void plainRecoveryDoesWhatItsDryRunListed(ToolDatabase db) throws SQLException {
        build(db);
        ToolRun dry = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
        assertEquals(0, dry.code(), dry.err());
        Map<Long, String> shown = recoveries(dry.out(), false);
        assertEquals(2, shown.size(), "the clusters behind a departed server's job wait: " + dry.out());
        assertFalse(dry.out().contains("\"action\": \"would_fail\""), dry.out());
        ToolRun apply = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply", "--format", "json");
        assertEquals(0, apply.code(), apply.err());
        assertEquals(shown, recoveries(apply.out(), true), apply.out());
        assertEquals(shown, states(db, shown.keySet()));
        assertTrue(departedJobs(apply.out(), "failed").isEmpty(), "no job failed without --fail-departed-jobs");
    }
}
