// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate --processes} in fenced mode on a throwaway 3-node MariaDB Galera cluster
 * (scripts/galera.sh): each server writes on another node, at least 3 SIGKILLs, 2 pauses past the
 * heartbeat threshold and a database node killed mid-run and started again. No invariant broken,
 * no known window opened, and the cluster is whole again at the end.
 */
class GaleraProcessSimulationTest {
    private static final Path SCRIPT = Paths.get(System.getProperty("cks.repo.root")).resolve("scripts/galera.sh")
            .normalize();

    private static String galera(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "galera.sh " + String.join(" ", args) + " timed out");
        assertEquals(0, p.exitValue(), "galera.sh " + String.join(" ", args) + ": " + out);
        return out.strip();
    }

    @BeforeAll
    static void startCluster() throws Exception {
        galera("start");
    }

    @AfterAll
    static void stopCluster() throws Exception {
        galera("stop");
    }

    @Test
    void fencedServersOnThreeGaleraNodesSurviveKillsPausesAndANodeKill() throws Exception {
        List<String> urls = galera("urls").lines().filter(l -> l.startsWith("jdbc:")).toList();
        assertEquals(3, urls.size(), urls.toString());
        SimulationConfig config = new SimulationConfig(3, 16, 200, 4, 11L, 90, 4, 200, 40, 40, 0.1, 0.1, false,
                urls.get(0), null, null, StateMode.FENCED);
        SimulationReport report = Simulation.processes(config,
                new ProcessOptions(urls, 2, 3000, 1, SCRIPT.toString()), line -> { }).run();
        String json = report.toJson();
        assertTrue(report.invariantsHold(), json);
        assertEquals(3, report.number("setup", "database_urls"), json);
        assertTrue(report.number("crashes", "crashes") >= 3, json);
        assertEquals(2, report.number("crashes", "pauses"), json);
        assertEquals(1, report.number("crashes", "db_node_kills"), json);
        assertEquals(0, report.number("crashes", "unexpected_exits"), json);
        assertEquals(0, report.number("crashes", "killed_at_end"), json);
        for (String window : new String[] {"live_operations_failed", "zombie_completions", "concurrent_proceeds",
            "stop_takeovers_of_starting", "overrun_by_zombies"}) {
            assertEquals(0, report.number("known_windows", window), window + ": " + json);
        }
        assertEquals(0, ProcessHandle.current().descendants().count(), "a server process outlived the run");
        galera("status"); // every node answers and the cluster has its 3 members again
    }
}
