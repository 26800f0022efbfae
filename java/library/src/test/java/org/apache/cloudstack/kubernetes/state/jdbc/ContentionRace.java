// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * One JVM's side of the contention test: {@code threads} threads, each with its own connection,
 * race {@code rounds} times to enter an operation on the same cluster, all from the state they
 * "loaded" (Running), as CloudStack's workers do. JVMs synchronise every round through the
 * table {@code cks_race_control}: JVM 0 (the coordinator, inside the JUnit test) resets the
 * cluster to Running and opens the round once JVM 1 (a child process) is ready for it.
 */
final class ContentionRace {
    static final String CONTROL_TABLE = "cks_race_control";
    private static final Operation[] OPERATIONS = {Operation.STOP, Operation.UPGRADE, Operation.SCALE,
        Operation.ADD_NODES, Operation.REMOVE_NODES, Operation.DESTROY, Operation.AUTOSCALE};
    private static final long POLL_TIMEOUT_MILLIS = 60_000;
    private static final long START_DELAY_MILLIS = 4;

    /** Per round: winners, losers with the retry result, other results, exceptions. */
    static final class Tally {
        final int[] winners;
        final int[] losers;
        final int[] others;
        final int[] exceptions;

        Tally(int rounds) {
            winners = new int[rounds];
            losers = new int[rounds];
            others = new int[rounds];
            exceptions = new int[rounds];
        }
    }

    private final ConnectionSource source;
    private final long clusterId;
    private final int jvm;
    private final boolean solo;
    private final int threads;
    private final int rounds;

    /**
     * @param source    connections of this JVM's racers
     * @param jvm       0 = coordinator (resets the cluster), 1 = the child process
     * @param solo      true: one JVM only, no cross-JVM synchronisation
     */
    ContentionRace(ConnectionSource source, long clusterId, int jvm, boolean solo, int threads, int rounds) {
        this.source = source;
        this.clusterId = clusterId;
        this.jvm = jvm;
        this.solo = solo;
        this.threads = threads;
        this.rounds = rounds;
    }

    /** Creates the control table with rows for this race. */
    static void prepareControl(ConnectionSource source) throws SQLException {
        try (Connection c = source.open(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + CONTROL_TABLE
                    + " (name varchar(32) NOT NULL, val bigint NOT NULL, PRIMARY KEY (name)) ENGINE=InnoDB");
            st.executeUpdate("DELETE FROM " + CONTROL_TABLE);
            st.executeUpdate("INSERT INTO " + CONTROL_TABLE + " (name, val) VALUES ('ready1', 0), ('go', 0), ('at', 0), ('abort', 0)");
        }
    }

    static void dropControl(ConnectionSource source) throws SQLException {
        try (Connection c = source.open(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + CONTROL_TABLE);
        }
    }

    /** Runs all rounds; returns the tally of this JVM. */
    Tally run() throws Exception {
        Tally tally = new Tally(rounds);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger round = new AtomicInteger(0);
        try (Connection control = source.open()) {
            CyclicBarrier start = new CyclicBarrier(threads, () -> {
                int r = round.incrementAndGet();
                try {
                    if (r <= rounds) {
                        openRound(control, r);
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                    throw new IllegalStateException(e);
                }
            });
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final Operation operation = OPERATIONS[(t + jvm) % OPERATIONS.length];
                Thread worker = new Thread(() -> race(operation, start, round, tally, failure), "race-" + jvm + "-" + t);
                workers.add(worker);
                worker.start();
            }
            for (Thread w : workers) {
                w.join(TimeUnit.MINUTES.toMillis(3));
            }
            if (failure.get() != null) {
                abort(control);
                throw new IllegalStateException("JVM " + jvm + " failed: " + failure.get(), failure.get());
            }
        }
        return tally;
    }

    private void race(Operation operation, CyclicBarrier start, AtomicInteger round, Tally tally,
            AtomicReference<Throwable> failure) {
        try (Connection mine = source.open()) {
            Connection unclosable = (Connection) Proxy.newProxyInstance(ContentionRace.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("close")) {
                            return null;
                        }
                        try {
                            return method.invoke(mine, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            ClusterOperationGuard<State, Event> guard = new ClusterOperationGuard<>(
                    new KubernetesClusterStateDao<>(Fixtures.MACHINE, () -> unclosable));
            for (int i = 0; i < rounds; i++) {
                start.await(2, TimeUnit.MINUTES);
                int r = round.get() - 1;
                try {
                    OperationEntry<State, Event> entry = guard.transitToOperationState(clusterId, operation, State.Running);
                    synchronized (tally) {
                        if (entry.kind() == OperationEntry.Kind.ENTERED) {
                            tally.winners[r]++;
                        } else if (entry.kind() == OperationEntry.Kind.LOST_RACE
                                && entry.message().contains("please retry")) {
                            tally.losers[r]++;
                        } else {
                            tally.others[r]++;
                        }
                    }
                } catch (RuntimeException e) {
                    synchronized (tally) {
                        tally.exceptions[r]++;
                    }
                    System.out.println("JVM " + jvm + " round " + r + " exception: " + e);
                }
            }
            start.await(2, TimeUnit.MINUTES); // the last barrier: every thread of this JVM is done
        } catch (SQLException | InterruptedException | BrokenBarrierException | TimeoutException e) {
            failure.compareAndSet(null, e);
            start.reset();
        }
    }

    /** The barrier action: cross-JVM synchronisation of round r (1-based). */
    private void openRound(Connection control, int r) throws SQLException, InterruptedException {
        if (solo) {
            resetCluster(control);
        } else if (jvm == 0) {
            waitFor(control, "ready1", r);
            resetCluster(control);
            // Both JVMs start the round at the same instant (same machine, same clock).
            long at = System.currentTimeMillis() + START_DELAY_MILLIS;
            set(control, "at", at);
            set(control, "go", r);
            sleepUntil(at);
        } else {
            set(control, "ready1", r);
            waitFor(control, "go", r);
            sleepUntil(get(control, "at"));
        }
    }

    /** Test setup: puts the cluster back in Running for the next round. */
    private void resetCluster(Connection control) throws SQLException {
        try (PreparedStatement ps = control.prepareStatement(
                "UPDATE kubernetes_cluster SET state = 'Running' WHERE id = ?")) {
            ps.setLong(1, clusterId);
            ps.executeUpdate();
        }
    }

    private static void sleepUntil(long epochMillis) {
        long nanos = TimeUnit.MILLISECONDS.toNanos(epochMillis - System.currentTimeMillis());
        long deadline = System.nanoTime() + nanos;
        while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    private static long get(Connection control, String name) throws SQLException {
        try (PreparedStatement ps = control.prepareStatement("SELECT val FROM " + CONTROL_TABLE + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void set(Connection control, String name, long value) throws SQLException {
        try (PreparedStatement ps = control.prepareStatement("UPDATE " + CONTROL_TABLE + " SET val = ? WHERE name = ?")) {
            ps.setLong(1, value);
            ps.setString(2, name);
            ps.executeUpdate();
        }
    }

    private static void abort(Connection control) {
        try {
            set(control, "abort", 1);
        } catch (SQLException ignored) {
            // best effort: the other JVM times out anyway
        }
    }

    private static void waitFor(Connection control, String name, int atLeast) throws SQLException, InterruptedException {
        long deadline = System.currentTimeMillis() + POLL_TIMEOUT_MILLIS;
        try (PreparedStatement ps = control.prepareStatement("SELECT name, val FROM " + CONTROL_TABLE
                + " WHERE name IN (?, 'abort')")) {
            ps.setString(1, name);
            while (true) {
                int value = -1;
                boolean aborted = false;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getString(1).equals("abort")) {
                            aborted = rs.getLong(2) != 0;
                        } else {
                            value = (int) rs.getLong(2);
                        }
                    }
                }
                if (aborted) {
                    throw new IllegalStateException("the other JVM aborted the race");
                }
                if (value >= atLeast) {
                    return;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("timed out waiting for " + name + " >= " + atLeast);
                }
                Thread.sleep(0, 200_000);
            }
        }
    }
}
