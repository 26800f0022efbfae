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
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The tool asks the database which CloudStack release it is (its `version` table) and uses that
 * release's table: the same stuck clusters are recovered differently on each release line, a release
 * without a table is read with the nearest and never written without --profile.
 */
class ReleaseTableScanTest {
    /** A cluster stuck in each operation state whose rows differ between the release lines. */
    private static final String[] STUCK = {"Scaling", "ScalingStoppedCluster", "Importing", "RemovingNodes"};

    private ToolDatabase used;

    private void build(ToolDatabase db, String release) throws SQLException {
        used = db;
        db.reset();
        try (Connection c = db.connect()) {
            for (String state : STUCK) {
                CloudStackRows.on(c).cluster(state).name("stuck-" + state).uuid("uuid-" + state).insert();
            }
            CloudStackRows.release(c, release);
        }
    }

    /** The test database's release as the other tests expect it. */
    @AfterEach
    void restoreRelease() throws SQLException {
        if (used != null) {
            try (Connection c = used.connect()) {
                CloudStackRows.release(c, CloudStackRows.RELEASE);
            }
        }
    }

    /** "state -> to" of each recovery the JSON report lists. */
    private static List<String> recoveries(String json) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\"state\": \"(\\w+)\", \"to\": \"(\\w+)\"").matcher(json);
        while (m.find()) {
            out.add(m.group(1) + " -> " + m.group(2));
        }
        return out;
    }

    private static Map<String, String> states(ToolDatabase db) throws SQLException {
        return db.statesByName();
    }

    private static void plans(ToolDatabase db, String release, String table, List<String> expected) throws SQLException {
        ToolRun json = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
        assertEquals(0, json.code(), json.err());
        assertTrue(json.out().contains("\"table\": \"" + table + "\", \"table_chosen\": \"CloudStack " + release
                + "'s, from the version table\""), json.out());
        assertEquals(expected, recoveries(json.out()), release);
        ToolRun text = ToolRun.of("scan", "--jdbc-url", db.url());
        // The jobs that hold a cluster are those of the release's line: 4.20 has no add or remove nodes.
        String jobs = table.startsWith("4.20") ? "CloudStack 4.20's cluster commands (6)" : "CloudStack 4.21 and later's cluster commands (8)";
        assertTrue(text.out().contains("\ntable: " + table + " (CloudStack " + release + "'s, from the version table)\njob commands: "
                + jobs + "\n"), text.out());
        assertTrue(json.out().contains("\"job_commands\": \"" + jobs + "\""), json.out());
        ToolRun explain = ToolRun.of("explain", "--jdbc-url", db.url(), "stuck-Importing");
        assertTrue(explain.out().contains("\ntable: " + table + " (CloudStack " + release + "'s"), explain.out());
        ToolRun schema = ToolRun.of("schema", "--jdbc-url", db.url(), "--format", "json");
        assertTrue(schema.out().contains("\"table\": \"" + table + "\""), schema.out());
        ToolRun rules = ToolRun.of("rules", "--jdbc-url", db.url());
        assertTrue(rules.err().contains("cks-state rules: using the table " + table + " (CloudStack " + release + "'s"), rules.err());
        ToolRun tableRows = ToolRun.of("table", "--jdbc-url", db.url());
        ToolRun asked = ToolRun.of("table", "--profile", table);
        assertEquals(asked.out(), tableRows.out(), "the database's table is the one --profile names");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void eachReleaseLinePlansWithItsOwnTable(ToolDatabase db) throws SQLException {
        // 4.20.0/4.20.1: neither ScalingStoppedCluster nor the node states; 4.20.2 adds the first, 4.21
        // the others; 4.22 has both.
        build(db, "4.20.1.0");
        plans(db, "4.20.1.0", "4.20.0", List.of("Scaling -> Alert"));
        build(db, "4.20.2.0");
        plans(db, "4.20.2.0", "4.20.2", List.of("Scaling -> Alert", "ScalingStoppedCluster -> Alert"));
        build(db, "4.21.0.0");
        plans(db, "4.21.0.0", "4.21", List.of("Scaling -> Alert", "Importing -> Running", "RemovingNodes -> Running"));
        build(db, "4.22.0.0");
        plans(db, "4.22.0.0", "4.22", List.of("Scaling -> Alert", "ScalingStoppedCluster -> Alert",
                "Importing -> Running", "RemovingNodes -> Running"));
        // 4.23 fails a scale back to Running (apache/cloudstack#12386).
        build(db, "4.23.0.0");
        plans(db, "4.23.0.0", "4.23", List.of("Scaling -> Running", "ScalingStoppedCluster -> Alert",
                "Importing -> Running", "RemovingNodes -> Running"));
        build(db, "4.22.0.0");
        ToolRun apply = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply");
        assertEquals(0, apply.code(), apply.err());
        assertEquals(List.of("Alert", "Alert", "Running", "Running"), List.copyOf(states(db).values()));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void aReleaseWithoutATableIsReadWithTheNearestAndNeverWritten(ToolDatabase db) throws SQLException {
        // The release after 4.23 is 24.0.0: three numbers in its version table.
        build(db, "24.0.0");
        Map<String, String> before = states(db);
        ToolRun read = ToolRun.of("scan", "--jdbc-url", db.url());
        assertEquals(0, read.code(), read.err());
        assertTrue(read.out().contains("\ntable: 4.23 (the newest table: CloudStack 24.0.0 is newer than every table"
                + " of this library, from the version table)\n"), read.out());
        assertEquals(4, read.out().lines().filter(l -> l.contains(" -> ")).count(), read.out());
        for (String[] args : List.of(new String[] {"scan", "--apply"}, new String[] {"scan", "--fail-departed-jobs", "--apply"},
                new String[] {"schema", "--migrate", "fenced", "--apply"})) {
            List<String> command = new ArrayList<>(List.of(args));
            command.addAll(List.of("--jdbc-url", db.url()));
            ToolRun refused = ToolRun.of(command.toArray(new String[0]));
            assertEquals(1, refused.code(), refused.out());
            assertEquals("cks-state " + args[0] + ": --apply refused, nothing changed: the tool has no table of CloudStack"
                    + " 24.0.0; name the table the management servers run with --profile (4.22, alert-scaling, 4.20.0,"
                    + " 4.20.2, 4.21, 4.23)\n", refused.err());
            assertEquals(before, states(db));
        }
        ToolRun schema = ToolRun.of("schema", "--jdbc-url", db.url());
        assertTrue(schema.out().contains("mode: compat"), "the migration refused: " + schema.out());

        build(db, "4.19.1.0");
        ToolRun older = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
        assertTrue(older.out().contains("\"table\": \"4.20.0\", \"table_chosen\": \"the oldest table: CloudStack 4.19.1.0 is"
                + " older than every table of this library, from the version table\""), older.out());
        assertEquals(List.of("Scaling -> Alert"), recoveries(older.out()));
        assertEquals(1, ToolRun.of("scan", "--jdbc-url", db.url(), "--apply").code());

        // The operator names the table: it is used, read and written.
        ToolRun named = ToolRun.of("scan", "--jdbc-url", db.url(), "--profile", "4.21", "--apply");
        assertEquals(0, named.code(), named.err());
        assertTrue(named.out().contains("\ntable: 4.21 (asked for)\n"), named.out());
        assertEquals(List.of("Alert", "ScalingStoppedCluster", "Running", "Running"), List.copyOf(states(db).values()));
        ToolRun unknown = ToolRun.of("scan", "--jdbc-url", db.url(), "--profile", "4.19");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("unknown table '4.19' (expected auto, 4.22, alert-scaling, 4.20.0, 4.20.2,"
                + " 4.21, 4.23)"), unknown.err());
    }
    /**
     * Every form of version CloudStack writes in its `version` table (four numbers up to 4.23, three
     * from 24.0.0), and junk: its own table, read and written; or the nearest, read only, --apply refused
     * naming --profile; never a stack trace.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void everyVersionCloudStackWritesGetsItsTableOrTheNearestReadOnly(ToolDatabase db) throws SQLException {
        Map<String, String> own = new LinkedHashMap<>();
        own.put("4.23.0.0", "4.23");
        own.put("4.22.1.1", "4.22");
        own.put("4.20.3.0", "4.20.2");
        own.put("4.22.0.0-SNAPSHOT", "4.22");
        for (Map.Entry<String, String> e : own.entrySet()) {
            build(db, e.getKey());
            ToolRun read = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
            assertEquals(0, read.code(), read.err());
            assertTrue(read.out().contains("\"table\": \"" + e.getValue() + "\", \"table_chosen\": \"CloudStack " + e.getKey()
                    + "'s, from the version table\""), read.out());
            ToolRun apply = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply");
            assertEquals(0, apply.code(), e.getKey() + ": " + apply.err());
        }
        Map<String, String> nearest = new LinkedHashMap<>();
        nearest.put("24.0.0", "is newer than every table");
        nearest.put("25.1.0", "is newer than every table");
        nearest.put("4.19.0.1", "is older than every table");
        nearest.put("99999.0.0.0", "is not a version the tool reads");
        nearest.put("4.23", "is not a version the tool reads");
        nearest.put("24", "is not a version the tool reads");
        nearest.put("v4.23.0.0; DROP TABLE version", "is not a version the tool reads");
        nearest.put("4.23.0.0.0", "is not a version the tool reads");
        nearest.put("", "is not a version the tool reads");
        nearest.put("4.2\u001b[31m", "release '4.2\\x1b[31m' is not a version the tool reads");
        for (Map.Entry<String, String> e : nearest.entrySet()) {
            build(db, e.getKey());
            Map<String, String> before = states(db);
            ToolRun read = ToolRun.of("scan", "--jdbc-url", db.url());
            assertEquals(0, read.code(), "'" + e.getKey() + "': " + read.err());
            assertTrue(read.out().contains(e.getValue()), "'" + e.getKey() + "': " + read.out());
            ToolRun apply = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply");
            assertEquals(1, apply.code(), "'" + e.getKey() + "': " + apply.out());
            assertTrue(apply.err().startsWith("cks-state scan: --apply refused, nothing changed: ")
                    && apply.err().contains("--profile") && apply.err().lines().count() == 1, "'" + e.getKey() + "': " + apply.err());
            for (ToolRun run : List.of(read, apply)) {
                assertTrue(!run.err().contains("Exception") && !run.err().contains("\tat "), "'" + e.getKey() + "': " + run.err());
                assertTrue((run.out() + run.err()).chars().noneMatch(ch -> ch == 0x1b), "an escape reached the terminal: " + run);
            }
            assertEquals(before, states(db), e.getKey());
        }
    }
}
