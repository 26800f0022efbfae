// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.tool.cli.ToolDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/**
 * {@code simulate --processes} on MariaDB: every management server its own JVM, at least 3 SIGKILLs
 * and 2 SIGSTOPs past the heartbeat threshold (the peers mark the server Down and fail its jobs, and
 * it fences itself when it resumes). Fenced mode: no invariant broken and no known window opened;
 * compat mode: no invariant broken. No process and no temp folder outlives the run, and no child's
 * command line carries the password.
 */
class ProcessSimulationTest {
    private static Set<String> runFolders() {
        Set<String> out = new TreeSet<>();
        File[] files = new File(System.getProperty("java.io.tmpdir")).listFiles();
        for (File f : files == null ? new File[0] : files) {
            if (f.getName().startsWith("cks-state-processes-")) {
                out.add(f.getName());
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} mode")
    @EnumSource(StateMode.class)
    void serversAsProcessesSurviveKillsAndPauses(StateMode mode) throws Exception {
        String url = SimulateUrl.of(ToolDatabase.MARIADB);
        // A stock server: the pools must fit MariaDB's default (a script that raises it hides eager pools).
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
                java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT @@max_connections")) {
            assertTrue(rs.next());
            assertEquals(151, rs.getInt(1), "the test server's max_connections is MariaDB's default");
        }
        Set<String> foldersBefore = runFolders();
        // 3 servers, 16 clusters, 160 operations 40 ms apart (about 6 s) of up to 400 ms of work, 4 crashes.
        SimulationConfig config = new SimulationConfig(3, 16, 160, 4, 11L, 60, 4, 200, 40, 40, 0.1, 0.1, false, url,
                null, null, mode);
        List<String> passwordsSeen = new CopyOnWriteArrayList<>();
        Thread spy = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                ProcessHandle.current().descendants().forEach(p -> p.info().arguments().ifPresent(args -> {
                    if (String.join(" ", args).contains("password=")) {
                        passwordsSeen.add(String.join(" ", args));
                    }
                }));
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        spy.setDaemon(true);
        spy.start();
        SimulationReport report;
        try {
            report = Simulation.processes(config, new ProcessOptions(List.of(url), 2, 3000), line -> { }).run();
        } finally {
            spy.interrupt();
        }
        String json = report.toJson();
        assertTrue(report.invariantsHold(), json);
        assertTrue(report.number("crashes", "crashes") >= 3, "at least 3 SIGKILLs: " + json);
        assertEquals(2, report.number("crashes", "pauses"), json);
        assertTrue(report.number("crashes", "peers_marked_down") >= 1, "peers judged a paused server gone: " + json);
        assertTrue(report.number("crashes", "self_fenced") >= 1, "a resumed server fenced itself: " + json);
        assertTrue(report.number("crashes", "processes_started") >= 3 + report.number("crashes", "crashes"), json);
        assertEquals(0, report.number("crashes", "unexpected_exits"), json);
        assertEquals(0, report.number("crashes", "killed_at_end"), json);
        assertEquals(0, report.number("operations", "not_dispatched_in_time"), json);
        assertTrue(report.number("operations", "entered") > 0 && report.number("scanner", "passes") > 0, json);
        if (mode == StateMode.FENCED) {
            for (String window : new String[] {"live_operations_failed", "zombie_completions", "concurrent_proceeds",
                "stop_takeovers_of_starting", "overrun_by_zombies"}) {
                assertEquals(0, report.number("known_windows", window), window + ": " + json);
            }
        }
        assertEquals(0, ProcessHandle.current().descendants().count(), "a server process outlived the run");
        assertEquals(foldersBefore, runFolders(), "the run's folder was left behind");
        assertFalse(!passwordsSeen.isEmpty(), "a password on a child's command line: " + passwordsSeen);
    }

    private static String usageError(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = SimulatorMain.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertEquals(2, cl.execute(args), err.toString());
        return err.toString();
    }

    @Test
    void processOptionsAreCheckedByName() {
        String url = "jdbc:mariadb://127.0.0.1:1/x";
        assertTrue(usageError("simulate", "--processes").startsWith("cks-state simulate: --processes needs a"
                + " MariaDB/MySQL database (--jdbc-url)"), usageError("simulate", "--processes"));
        assertTrue(usageError("simulate", "--pauses", "2").startsWith("cks-state simulate: --pauses, --db-node-kills"
                + " and --db-node-hook go with --processes"));
        assertTrue(usageError("simulate", "--processes", "--jdbc-url", url, "--db-node-kills", "1").contains(
                "--db-node-kills needs --db-node-hook"));
        assertTrue(usageError("simulate", "--jdbc-url", url, "--jdbc-url", url).startsWith("cks-state simulate:"
                + " several --jdbc-url go with --processes"));
        assertTrue(usageError("simulate", "--processes", "--jdbc-url", "jdbc:h2:mem:x").contains("MariaDB/MySQL URLs"
                + " only"));
        assertTrue(usageError("simulate", "--processes", "--jdbc-url", url, "--heartbeat-threshold-ms", "10")
                .contains("at least 1000 ms"));
    }
}
