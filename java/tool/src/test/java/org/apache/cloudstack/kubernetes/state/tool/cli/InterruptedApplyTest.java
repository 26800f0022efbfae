// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.junit.jupiter.api.Test;

/**
 * Ctrl-C in the middle of {@code scan --apply} over 2,000 stuck clusters, in the tool's own JVM on
 * CloudStack's database: every change it committed was printed as it committed, the run ends with
 * status 130 naming what it left, and a second run finishes the rest. Where this JVM was started with
 * SIGINT ignored (a background job of a shell), its children inherit that, as they would from an
 * operator's shell: the test then sends SIGTERM, the other signal the tool handles, and expects 143.
 */
class InterruptedApplyTest {
    private static final int CLUSTERS = 2000;
    /** The signal goes after this many printed recoveries: well inside the run. */
    private static final int SIGNAL_AFTER = 100;
    /**
     * The cluster whose row the test holds locked until the signal went: the tool cannot run past it, so
     * the signal lands inside the run however far the tool's output ran ahead of the test's reading
     * (a pipe holds about 1,800 of its lines).
     */
    private static final String GATE = "stuck-" + (SIGNAL_AFTER + 50);
    /** How long the gate stays closed after the signal: the JVM's shutdown hook needs far less. */
    private static final long GATE_HOLD_MILLIS = 2000;
    /** The gate opens by itself after this long: a tool stuck before the signal then fails the test, never hangs it. */
    private static final long GATE_BOUND_SECONDS = 120;
    /** The signal the test sends: INT, unless this process ignores it (then its children do too). */
    private static final Signal SIGNAL = ignored(2) ? new Signal("TERM", 143) : new Signal("INT", 130);
    private static final Pattern DONE = Pattern.compile("^  (\\d+) \\S+ \\S+: done$");

    /** 2,000 Scaling clusters without a job: one built, copied in one transaction. */
    private static Set<Long> stuckClusters(ToolDatabase db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            long first = CloudStackRows.on(c).cluster("stuck-0", "Scaling");
            String columns = "description, zone_id, kubernetes_version_id, service_offering_id, template_id,"
                    + " control_node_count, node_count, account_id, domain_id, state, cores, memory, node_root_disk_size, gc,"
                    + " cluster_type, created";
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO kubernetes_cluster (uuid, name, " + columns
                    + ") SELECT ?, ?, " + columns + " FROM kubernetes_cluster WHERE id = ?")) {
                for (int i = 1; i < CLUSTERS; i++) {
                    ps.setString(1, "uuid-stuck-" + i);
                    ps.setString(2, "stuck-" + i);
                    ps.setLong(3, first);
                    ps.executeUpdate();
                }
            }
            c.commit();
            return ids(c, "SELECT id FROM kubernetes_cluster WHERE name LIKE 'stuck-%' AND state = 'Scaling'");
        }
    }

    private record Signal(String name, int status) {
    }

    /** Whether signal {@code number} is ignored by this process (the SigIgn mask of /proc/self/status). */
    private static boolean ignored(int number) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return new java.math.BigInteger(line.substring(7).strip(), 16).testBit(number - 1);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("/proc/self/status has no SigIgn line");
    }

    private static long gateId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM kubernetes_cluster WHERE name = ?")) {
            ps.setString(1, GATE);
            Set<Long> ids = ids(ps);
            assertEquals(1, ids.size(), GATE);
            return ids.iterator().next();
        }
    }

    /** Opens the gate (once, from the test or its bound): the row lock goes, the tool's update in flight commits. */
    private static synchronized Void release(Connection gate) throws SQLException {
        if (!gate.isClosed()) {
            gate.rollback();
            gate.close();
        }
        return null;
    }

    private static Set<Long> ids(PreparedStatement query) throws SQLException {
        Set<Long> out = new TreeSet<>();
        try (ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    private static Set<Long> ids(Connection c, String sql) throws SQLException {
        Set<Long> out = new TreeSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    @Test
    void aSignalStopsAfterTheChangeInFlightAndSaysWhatItDidAndLeft() throws Exception {
        ToolDatabase db = ToolDatabase.MARIADB;
        Set<Long> stuck = stuckClusters(db);
        assertEquals(CLUSTERS, stuck.size());
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xcheck:jni",
                "-cp", System.getProperty("java.class.path"), CksStateCommand.class.getName(), "scan", "--apply",
                "--jdbc-url", db.url());
        Path err = Files.createTempFile("cks-interrupted", ".err");
        Connection gate = db.connect();
        gate.setAutoCommit(false);
        // By primary key: a FOR UPDATE through a column without an index would lock every row it reads.
        try (PreparedStatement lock = gate.prepareStatement("SELECT id FROM kubernetes_cluster WHERE id = ? FOR UPDATE")) {
            lock.setLong(1, gateId(gate));
            assertEquals(1, ids(lock).size(), GATE);
        }
        ScheduledExecutorService bound = Executors.newSingleThreadScheduledExecutor();
        bound.schedule(() -> release(gate), GATE_BOUND_SECONDS, TimeUnit.SECONDS);
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        List<String> lines = new ArrayList<>();
        Set<Long> printedDone = new TreeSet<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            boolean signalled = false;
            // Bounded: the tool's own output ends it; the process wait below bounds the whole.
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
                Matcher m = DONE.matcher(line);
                if (m.matches()) {
                    printedDone.add(Long.parseLong(m.group(1)));
                    if (!signalled && printedDone.size() == SIGNAL_AFTER) {
                        signalled = true;
                        assertEquals(0, new ProcessBuilder("kill", "-" + SIGNAL.name, String.valueOf(p.pid())).start().waitFor());
                        Thread.sleep(GATE_HOLD_MILLIS);
                        release(gate);
                    }
                }
            }
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail("the tool did not end within 2 minutes of its signal: " + Files.readString(err));
            }
            assertTrue(signalled, "the run ended before " + SIGNAL_AFTER + " recoveries: " + lines);
        } finally {
            release(gate);
            bound.shutdownNow();
            p.destroyForcibly();
        }
        String stderr = Files.readString(err);
        Files.deleteIfExists(err);
        assertEquals(SIGNAL.status, p.exitValue(), "SIG" + SIGNAL.name + "'s status; stderr: " + stderr + "\nout: "
                + String.join("\n", lines));
        String summary = lines.stream().filter(l -> l.startsWith("interrupted by a signal")).findFirst()
                .orElseThrow(() -> new AssertionError("no summary line: " + lines));
        Matcher counts = Pattern.compile("(\\d+) cluster\\(s\\) recovered, (\\d+) missed; left untouched: 0 departed server"
                + " job\\(s\\) \\[\\], (\\d+) cluster\\(s\\) \\[([\\d, ]*)\\]").matcher(summary);
        assertTrue(counts.find(), summary);
        assertEquals(printedDone.size(), Integer.parseInt(counts.group(1)), summary);
        assertTrue(printedDone.size() < CLUSTERS, "the signal stopped the run: " + summary);
        Set<Long> left = new TreeSet<>();
        for (String id : counts.group(4).split(", ")) {
            left.add(Long.parseLong(id));
        }
        assertEquals(Integer.parseInt(counts.group(3)), left.size());
        try (Connection c = db.connect()) {
            assertEquals(printedDone, ids(c, "SELECT id FROM kubernetes_cluster WHERE name LIKE 'stuck-%' AND state = '"
                    + ToolDatabase.FAILED_SCALE + "'"), "exactly the printed clusters moved");
            Set<Long> scaling = ids(c, "SELECT id FROM kubernetes_cluster WHERE name LIKE 'stuck-%' AND state = 'Scaling'");
            assertEquals(left, scaling, "what it says it left is what is left");
        }
        ToolRun second = ToolRun.of("scan", "--apply", "--jdbc-url", db.url());
        assertEquals(0, second.code(), second.err());
        try (Connection c = db.connect()) {
            assertEquals(stuck, ids(c, "SELECT id FROM kubernetes_cluster WHERE name LIKE 'stuck-%' AND state = '"
                    + ToolDatabase.FAILED_SCALE + "'"), "the second run finishes");
        }
    }

    /**
     * An --apply that fails before any work (a refused login) exits at once: the signal hook, which
     * waits up to Interruption.REPORT_WAIT_SECONDS for a report at exit, is gone on every way out.
     */
    @Test
    void aRefusedApplyExitsWithoutWaitingForTheSignalHook() throws Exception {
        String wrong = ToolDatabase.MARIADB.bareUrl() + "?user=cks&password=not-the-password";
        Path output = Files.createTempFile("cks-refused", ".out");
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xcheck:jni", "-cp", System.getProperty("java.class.path"), CksStateCommand.class.getName(), "scan",
                    "--apply", "--jdbc-url", wrong).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            long bound = Interruption.REPORT_WAIT_SECONDS / 2;
            if (!p.waitFor(bound, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("scan --apply with a refused login did not exit within " + bound + " s: " + Files.readString(output));
            }
            String out = Files.readString(output);
            assertEquals(1, p.exitValue(), out);
            assertTrue(out.contains("access denied"), out);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
