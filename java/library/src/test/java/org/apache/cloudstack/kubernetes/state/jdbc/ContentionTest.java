// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Contention on a real MariaDB server: 2 JVM processes x 16 threads race to enter an operation
 * on the same cluster, 500 rounds. Every round exactly one wins; every loser gets the "please
 * retry" result; no exception; cks_state_history holds exactly one change per round.
 */
class ContentionTest {
    static final int THREADS = 16;
    static final int ROUNDS = 500;

    static Stream<Databases.Db> mariadb() {
        return Stream.of(Databases.mariadb(), Databases.connectorJ());
    }

    @ParameterizedTest(name = "{0} contention: 2 JVMs x 16 threads race to enter one cluster, 500 rounds")
    @MethodSource("mariadb")
    void exactlyOneWinnerPerRound(Databases.Db db) throws Exception {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        String url = db.url();
        ContentionRace.prepareControl(db.source());
        Process child = startChild(url, id);
        List<String> childLines = new ArrayList<>();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (childLines) {
                        childLines.add(line);
                    }
                    if (!line.startsWith("RESULT ")) {
                        System.out.println("[jvm 1] " + line);
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        long started = System.nanoTime();
        ContentionRace.Tally mine;
        try {
            mine = new ContentionRace(db.source(), id, 0, false, THREADS, ROUNDS).run();
            assertTrue(child.waitFor(2, TimeUnit.MINUTES), "the second JVM did not finish");
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
            ContentionRace.dropControl(db.source());
        }
        reader.get(30, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(0, child.exitValue(), "second JVM: " + childLines);

        int[][] other = new int[ROUNDS][];
        synchronized (childLines) {
            assertTrue(childLines.contains("DONE"), "second JVM: " + childLines);
            for (String line : childLines) {
                if (line.startsWith("RESULT ")) {
                    String[] p = line.split(" ");
                    other[Integer.parseInt(p[1])] = new int[] {Integer.parseInt(p[2]), Integer.parseInt(p[3]),
                        Integer.parseInt(p[4]), Integer.parseInt(p[5])};
                }
            }
        }
        int roundsWithOneWinner = 0;
        int winners0 = 0;
        int winners1 = 0;
        int losers = 0;
        int others = 0;
        int exceptions = 0;
        List<String> bad = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) {
            if (other[r] == null) {
                fail("no result of the second JVM for round " + r);
            }
            int w = mine.winners[r] + other[r][0];
            int l = mine.losers[r] + other[r][1];
            winners0 += mine.winners[r];
            winners1 += other[r][0];
            losers += l;
            others += mine.others[r] + other[r][2];
            exceptions += mine.exceptions[r] + other[r][3];
            if (w == 1 && l == 2 * THREADS - 1) {
                roundsWithOneWinner++;
            } else if (bad.size() < 10) {
                bad.add("round " + r + ": " + w + " winners, " + l + " retry losers");
            }
        }
        long history = f.count("SELECT COUNT(*) FROM cks_state_history WHERE cluster_id = " + id
                + " AND from_state = 'Running'");
        System.out.printf("%s contention: 2 JVMs x %d threads, %d rounds in %d ms: %d/%d rounds with exactly one"
                + " winner (JVM 0 won %d, JVM 1 won %d), %d losers got the retry result, %d other results,"
                + " %d exceptions, %d history rows%n", db, THREADS, ROUNDS, millis, roundsWithOneWinner, ROUNDS,
                winners0, winners1, losers, others, exceptions, history);
        assertEquals(List.of(), bad);
        assertEquals(ROUNDS, roundsWithOneWinner);
        assertEquals(ROUNDS * (2 * THREADS - 1), losers);
        assertEquals(0, others);
        assertEquals(0, exceptions);
        assertEquals(ROUNDS, history, "one recorded change per round");
    }

    static Stream<Databases.Db> dbs() {
        return Databases.all();
    }

    @ParameterizedTest(name = "{0} in-process contention: 16 threads race to enter one cluster, 60 rounds")
    @MethodSource("dbs")
    void exactlyOneWinnerPerRoundInProcess(Databases.Db db) throws Exception {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        int rounds = 60;
        ContentionRace.Tally t = new ContentionRace(db.source(), id, 0, true, THREADS, rounds).run();
        int exceptions = 0;
        int others = 0;
        List<String> bad = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            exceptions += t.exceptions[r];
            others += t.others[r];
            if ((t.winners[r] != 1 || t.losers[r] != THREADS - 1) && bad.size() < 10) {
                bad.add("round " + r + ": " + t.winners[r] + " winners, " + t.losers[r] + " retry losers");
            }
        }
        System.out.printf("%s in-process contention: %d threads x %d rounds: %d rounds wrong, %d other results,"
                + " %d exceptions%n", db, THREADS, rounds, bad.size(), others, exceptions);
        assertEquals(List.of(), bad);
        assertEquals(0, others);
        assertEquals(0, exceptions);
        assertEquals(rounds, f.count("SELECT COUNT(*) FROM cks_state_history WHERE cluster_id = " + id
                + " AND from_state = 'Running'"), "one change from Running per round (the setup's resets are the rest)");
    }

    private static Process startChild(String url, long clusterId) throws java.io.IOException {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.add("-Xcheck:jni");
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("cks.")) {
                cmd.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(ContentionWorker.class.getName());
        cmd.add(url);
        cmd.add(Long.toString(clusterId));
        cmd.add(Integer.toString(THREADS));
        cmd.add(Integer.toString(ROUNDS));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE).start();
    }

}
