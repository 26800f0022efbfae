// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The MariaDB server restarted (clean shutdown, start on the same port and data directory, by
 * {@code scripts/mariadb.sh restart}) in the middle of a {@code simulate} run, on a private server
 * of this test (its own free port: the shared test server is never touched). The run must carry
 * on: operations and scanner passes that meet the dead connections count as database errors, the
 * jobs of those operations are failed once the server answers again, the scanner recovers their
 * clusters; and at the end no invariant is broken (no double entry, no stuck cluster, no state
 * change that is not a table row, no cluster in a state no recorded change put it in).
 *
 * <p>Both modes. In fenced mode an operation that dies of a database error while its server stays
 * up leaves its cluster held; the fenced scanner recovers it once the owner's job has ended.
 *
 * <p>System property {@code cks.restart.operations} raises the script for {@code make soak}.
 */
class DatabaseRestartSimulationTest {
    private static final Path SCRIPT = Paths.get(System.getProperty("cks.repo.root")).resolve("scripts/mariadb.sh")
            .normalize();
    private static int port;

    @BeforeAll
    static void startPrivateServer() throws Exception {
        String shared = System.getProperty("cks.mariadb.url", "").trim();
        if (shared.isEmpty() || shared.startsWith("${")) {
            fail("MariaDB tests need the server binaries and -Dmariadb.url (run `make test`, or scripts/mariadb.sh"
                    + " start and pass -Dmariadb.url=\"$(../scripts/mariadb.sh url)\")");
        }
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        script("start");
    }

    @AfterAll
    static void stopPrivateServer() throws Exception {
        if (port > 0) {
            script("stop");
        }
    }

    private static String script(String verb) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), verb).redirectErrorStream(true);
        pb.environment().put("CKS_MARIADB_PORT", Integer.toString(port));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "mariadb.sh " + verb + " timed out");
        assertEquals(0, p.exitValue(), "mariadb.sh " + verb + ": " + out);
        return out.strip();
    }

    @ParameterizedTest(name = "{0} mode: the database restarts mid-run, the run recovers and every invariant holds")
    @EnumSource(StateMode.class)
    void serverRestartedDuringASimulateRun(StateMode mode) throws Exception {
        int operations = Integer.getInteger("cks.restart.operations", 360);
        // The driver's pool waits up to connectTimeout (30 s by default) for a connection once the
        // server went away: a shorter wait turns that stall into database errors the run must absorb.
        String url = script("url") + "&connectTimeout=2000";
        // 3 servers, no crashes (the fault here is the database), ~25 ms between requests.
        SimulationConfig config = new SimulationConfig(3, 16, operations, 0, 8L, 120, 4, 40, 25, 40, 0.1, 0.1,
                false, url, null, null, mode);
        AtomicInteger dispatched = new AtomicInteger();
        List<String> doubleEntries = new CopyOnWriteArrayList<>();
        Pattern progress = Pattern.compile(": (\\d+)/\\d+ operations dispatched");
        CompletableFuture<SimulationReport> run = CompletableFuture.supplyAsync(() -> {
            try {
                return Simulation.threads(config, line -> {
                    if (line.contains("double entry")) {
                        doubleEntries.add(line);
                    }
                    Matcher m = progress.matcher(line);
                    if (m.find()) {
                        dispatched.set(Integer.parseInt(m.group(1)));
                    }
                }).run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // Restart once the servers are busy (not while the schema is being created).
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (dispatched.get() < operations / 4 && !run.isDone() && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertTrue(!run.isDone(), "the run ended before the restart: raise the operation count");
        String restarted = script("restart");
        SimulationReport report = run.get(5, TimeUnit.MINUTES);
        String json = report.toJson();
        System.out.println("RESTART " + mode + " " + restarted.replace('\n', ' ') + "\n" + json);
        long operationErrors = report.number("operations", "database_errors");
        long scannerErrors = report.number("scanner", "database_errors");
        assertTrue(operationErrors + scannerErrors > 0, "the restart was never seen: " + json);
        assertEquals(0, report.number("operations", "jobs_left_in_progress"), json);
        assertTrue(report.invariantsHold(), doubleEntries + "\n" + json);
        assertEquals(0, report.number("invariants", "illegal_transitions"), json);
        assertEquals(0, report.number("invariants", "stuck_clusters"), json);
        assertEquals(0, report.number("invariants", "double_entries"), doubleEntries + "\n" + json);
        assertTrue(report.number("operations", "entered") > 0, json);
    }
}
