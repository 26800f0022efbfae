// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One status scanner pass (orphan recovery, then Alert reconciliation) on a thread of its own that
 * stops at each point of its {@link ScanListener}, so a replay can run other actors between two of
 * its steps. Each point names the simulation's scanner step that ends there.
 */
final class SteppedScanner {
    /** A bound on every wait: a replay step takes milliseconds. */
    private static final long WAIT_SECONDS = 30;

    /** Thrown on the scanner's thread to end a pass whose server went away. */
    private static final class Ended extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Ended() {
            super("the scanner's server ended", null, false, false);
        }
    }

    private final BlockingQueue<String> reached = new LinkedBlockingQueue<>();
    private final Semaphore go = new Semaphore(0);
    private final Thread thread;
    private volatile boolean ended;

    SteppedScanner(ClusterStateScanner<?, ?> scanner, Predicate<Long> healthy, String name) {
        scanner.setListener(new ScanListener() {
            @Override
            public void candidatesRead() {
                pause("read-clusters");
            }

            @Override
            public void jobsRead() {
                pause("read-jobs");
            }

            @Override
            public void afterRecovery(long clusterId, boolean hit) {
                pause("recover");
            }

            @Override
            public void reconcileListed() {
                pause("list");
            }

            @Override
            public void afterReconcileStep(long clusterId, boolean hit) {
                pause("reconcile");
            }
        });
        thread = new Thread(() -> {
            try {
                scanner.recoverOrphanedOperationStates();
                scanner.reconcileAlertClusters(healthy);
                reached.add("done");
            } catch (Ended e) {
                reached.add("ended");
            } catch (RuntimeException | Error e) {
                reached.add("failed: " + e);
            }
        }, name);
        thread.setDaemon(true);
    }

    /** Runs the pass to its next point; the point's name ("done" at its end). */
    String step() throws InterruptedException {
        if (thread.getState() == Thread.State.NEW) {
            thread.start();
        } else {
            go.release();
        }
        String point = reached.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (point == null) {
            throw new AssertionError("the scanner's thread reached no point within " + WAIT_SECONDS + " s:\n"
                    + threadDump());
        }
        return point;
    }

    /** The server went away mid-pass: the pass ends where it stands. */
    void end() throws InterruptedException {
        ended = true;
        go.release();
        thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        if (thread.isAlive()) {
            throw new AssertionError("the scanner's thread did not end within " + WAIT_SECONDS + " s:\n" + threadDump());
        }
    }

    private void pause(String point) {
        reached.add(point);
        try {
            if (!go.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the replay did not resume the scanner within " + WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Ended();
        }
        if (ended) {
            throw new Ended();
        }
    }

    private static String threadDump() {
        StringBuilder out = new StringBuilder();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            out.append(t);
        }
        return out.toString();
    }
}
