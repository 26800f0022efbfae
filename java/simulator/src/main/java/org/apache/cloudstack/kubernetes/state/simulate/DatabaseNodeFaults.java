// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Kills database nodes mid-run and starts them again, through a hook script ({@code kill-node N},
 * {@code start-node N}; scripts/galera.sh): the servers writing on that node see errors while it is
 * away and carry on once it is back. Every call of the hook is bounded.
 */
final class DatabaseNodeFaults {
    /** How long a killed node stays down: shorter than the test's heartbeat threshold. */
    private static final long DOWN_MILLIS = 2500;
    private static final long KILL_WAIT_SECONDS = 60;
    private static final long START_WAIT_SECONDS = 180;

    final AtomicInteger kills = new AtomicInteger();
    private final DatabaseTopology topology;
    private final ActionLog faults;
    private final Path dir;

    DatabaseNodeFaults(DatabaseTopology topology, ActionLog faults, Path dir) {
        this.topology = topology;
        this.faults = faults;
        this.dir = dir;
    }

    /** Kills a node at each scripted time within {@code spanMillis} from {@code started}. */
    void run(long seed, long spanMillis, long started) {
        SplittableRandom random = new SplittableRandom(seed ^ 0xDB_0DEL);
        long[] at = new long[topology.nodeKills()];
        for (int i = 0; i < at.length; i++) {
            at[i] = random.nextLong(Math.max(1, spanMillis));
        }
        java.util.Arrays.sort(at);
        for (long millis : at) {
            if (!Sleep.until(started + TimeUnit.MILLISECONDS.toNanos(millis))) {
                return;
            }
            int node = 1 + random.nextInt(topology.urls().size());
            faults.write("DB_KILL", node, 0);
            hook("kill-node", node, KILL_WAIT_SECONDS);
            kills.incrementAndGet();
            if (!Sleep.millis(DOWN_MILLIS)) {
                return;
            }
            hook("start-node", node, START_WAIT_SECONDS);
            faults.write("DB_START", node, 0);
        }
    }

    private void hook(String verb, int node, long seconds) {
        try {
            Process p = new ProcessBuilder(topology.nodeHook(), verb, Integer.toString(node))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("db-node-hook.log").toFile()).start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(topology.nodeHook() + " " + verb + " " + node + " did not finish within "
                        + seconds + " s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(topology.nodeHook() + " " + verb + " " + node + " failed (exit "
                        + p.exitValue() + ")");
            }
        } catch (IOException e) {
            throw new IllegalStateException(topology.nodeHook() + " " + verb + " " + node + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
