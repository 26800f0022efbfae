// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.tool.settings.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.testkit.ClusterManagerRows;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * One management server as its own JVM ({@code simulate --processes}): the real guard, workers,
 * status scanner and heartbeat, on the database the parent prepared. The parent sends the scripted
 * operations on standard input ({@link ProcessCommands}); the process logs what it does in its
 * {@link ActionLog}. At start it does what CloudStack does: fails its own unfinished jobs of earlier
 * runs (530) and marks itself Up with its new runid. Its heartbeat marks silent peers Down and fails
 * their jobs; when it finds itself marked Down, or could not beat for longer than the threshold (it
 * was frozen, or its database node was away), it fences itself: it logs SELF_FENCE and halts.
 */
public final class ServerProcess {
    /** Where a server process finds its database password: the environment, never the command line. */
    public static final String PASSWORD_ENV = "CKS_STATE_SIMULATE_PASSWORD";
    /** The exit status of a process that fenced itself. */
    public static final int SELF_FENCED = 7;
    /** How often a server beats and looks at its peers (CloudStack: cluster.heartbeat.interval, 1500 ms). */
    static final int HEARTBEAT_MILLIS = 500;
    /** Start-up waits this many half seconds for its database node. */
    private static final int START_ATTEMPTS = 240;

    /**
     * What one process runs.
     *
     * @param index       the server's index in the script
     * @param msid        its msid (the same across restarts)
     * @param runid       this run's runid (new at every start)
     * @param jdbcUrl     the database (a Galera node: each server may write on another)
     * @param log         its action log
     */
    public record Settings(int index, long msid, long runid, String jdbcUrl, String user, String password,
            StateMode mode, int workers, int scannerMillis, boolean widenWindows, Path log) {
    }

    private ServerProcess() {
    }

    /** Runs until the parent sends {@code end} (then 0) or closes standard input (then halts). */
    public static int run(Settings s, BufferedReader commands) throws SQLException, IOException, InterruptedException {
        try (ActionLog log = new ActionLog(s.log()); SimulationDatabase db = retried(log, s.password(),
                () -> SimulationDatabase.attach(s.jdbcUrl(), s.user(), s.password(),
                        SimulationDatabase.connectionsPerServer(s.workers())))) {
            log.write("START", s.index(), s.msid(), s.runid(), ProcessHandle.current().pid());
            long[] up = retried(log, s.password(), () -> startUp(db, s));
            int failed = (int) up[0];
            long threshold = up[1];
            log.write("UP", failed, threshold);
            ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class)
                    .withMode(s.mode()).withHeartbeatThreshold(threshold);
            ManagementServer server = new ManagementServer(s.index(), s.msid(), s.runid());
            KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(machine, db.source());
            ClusterOperationGuard<State, Event> guard = new ClusterOperationGuard<>(dao);
            ClusterStateScanner<State, Event> statusScanner = new ClusterStateScanner<>(
                    new KubernetesClusterStateDao<>(machine, db.source()),
                    () -> Owner.of(s.msid(), s.runid()));
            LoggedActions events = new LoggedActions(log);
            InvariantMonitor local = new InvariantMonitor(); // the parent judges from the logs
            ScannerRunner scanner = new ScannerRunner(server, statusScanner, local, new ScannerStats(),
                    s.widenWindows(), events);
            List<SimCluster> clusters = retried(log, s.password(), db::clusters);
            OperationRunner runner = new OperationRunner(db, clusters, local, new OperationOutcomes(),
                    new LatencyRecorder(), s.widenWindows(), events);
            Thread scanning = daemon("scanner", () -> {
                while (Sleep.millis(s.scannerMillis())) {
                    scanner.pass();
                }
            });
            ClusterManagerRows peers = db.servers();
            AtomicLong lastBeat = new AtomicLong(System.nanoTime());
            Fence fence = new Fence(log, threshold, lastBeat);
            Thread heartbeat = daemon("heartbeat", () -> heartbeat(peers, s, fence, log));
            Thread fencing = daemon("self-fence", fence::watch);
            ExecutorService workers = Executors.newFixedThreadPool(s.workers());
            System.out.println(ProcessCommands.READY);
            System.out.flush();
            String line;
            while ((line = commands.readLine()) != null) {
                if (line.equals(ProcessCommands.END)) {
                    fence.stopping = true; // a clean stop is not a fence, however long it takes
                    fencing.interrupt();
                    workers.shutdown();
                    if (!workers.awaitTermination(60, TimeUnit.SECONDS)) {
                        log.write("WORKERS_STUCK");
                        Runtime.getRuntime().halt(3);
                    }
                    scanning.interrupt();
                    heartbeat.interrupt();
                    scanning.join(10_000);
                    heartbeat.join(10_000);
                    peers.stopped(s.msid(), s.runid());
                    log.write("STOP");
                    return 0;
                }
                ScriptedOperation op = ProcessCommands.operation(line, s.index());
                workers.submit(() -> runner.run(op, server, guard));
            }
            // The parent is gone: so is this server.
            log.write("ORPHANED");
            Runtime.getRuntime().halt(2);
            return 2;
        }
    }

    /**
     * What CloudStack does at start: fail this server's unfinished jobs, mark itself Up with the new
     * runid; and the heartbeat threshold.
     */
    private static long[] startUp(SimulationDatabase db, Settings s) throws SQLException {
        int failed = db.servers().started(s.msid(), s.runid());
        try (Connection c = db.open()) {
            return new long[] {failed, CloudStackConfiguration.heartbeatThresholdMillis(c)};
        }
    }

    /** A start-up step of the database. */
    @FunctionalInterface
    private interface StartStep<T> {
        T run() throws SQLException;
    }

    /** {@code step}, retried every half second while the database node is away (bounded). */
    private static String reason(SQLException e, String password) {
        String message = String.valueOf(e.getMessage());
        if (password != null && !password.isEmpty()) {
            message = message.replace(password, "***");
        }
        return "SQLState " + e.getSQLState() + ", error " + e.getErrorCode() + ": "
                + message.replaceAll("(?i)(password=)[^&;\\s]*", "$1***");
    }

    private static <T> T retried(ActionLog log, String password, StartStep<T> step) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return step.run();
            } catch (SQLException e) {
                log.write("START_FAILED", attempt, e.getErrorCode());
                // The parent shows the tail of this stream when a server does not come up: the
                // database's own reason (1040: too many connections), never the password.
                System.err.println("start attempt " + attempt + " failed: " + reason(e, password));
                if (attempt >= START_ATTEMPTS || !Sleep.millis(500)) {
                    throw e;
                }
            }
        }
    }

    /**
     * CloudStack's self-fencing: a server that finds itself marked Down, or could not beat for longer
     * than the threshold (its database away, or itself frozen), stops, since its peers may have judged
     * it gone by now. One fence per process, whichever thread sees it first.
     */
    private static final class Fence {
        private final ActionLog log;
        private final long thresholdNanos;
        private final AtomicLong lastBeat;
        private final AtomicBoolean fencing = new AtomicBoolean();
        volatile boolean stopping;

        Fence(ActionLog log, long thresholdMillis, AtomicLong lastBeat) {
            this.log = log;
            this.thresholdNanos = TimeUnit.MILLISECONDS.toNanos(thresholdMillis);
            this.lastBeat = lastBeat;
        }

        boolean silentTooLong() {
            return System.nanoTime() - lastBeat.get() > thresholdNanos;
        }

        void now() {
            if (!stopping && fencing.compareAndSet(false, true)) {
                log.write("SELF_FENCE");
                Runtime.getRuntime().halt(SELF_FENCED);
            }
        }

        void watch() {
            while (Sleep.millis(50)) {
                if (silentTooLong()) {
                    now();
                }
            }
        }
    }

    /** Beats; marks silent peers Down as CloudStack's cluster manager does; fences itself when it must. */
    private static void heartbeat(ClusterManagerRows db, Settings s, Fence fence, ActionLog log) {
        long threshold = fence.thresholdNanos / 1_000_000L;
        while (Sleep.millis(HEARTBEAT_MILLIS)) {
            if (fence.silentTooLong()) { // frozen past the threshold: no beat may hide it
                fence.now();
            }
            try {
                if (!db.beat(s.msid(), s.runid())) {
                    fence.now();
                }
                fence.lastBeat.set(System.nanoTime());
                for (long[] peer : db.silentPeers(s.msid(), threshold)) {
                    log.write("PEER_DOWN", peer[0], peer[1]);
                    log.write("PEER_DOWN_DONE", peer[0], peer[1], db.markPeerDown(s.msid(), peer[0], peer[1]));
                }
            } catch (SQLException e) {
                log.write("HEARTBEAT_FAILED");
            }
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, "cks-server-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

}
