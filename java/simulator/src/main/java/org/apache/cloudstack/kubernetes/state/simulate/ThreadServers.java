// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * The management servers as threads of this JVM, on one database: each with its worker pool, its
 * status scanner and its heartbeat; a crash is a real stop of the server's steps ({@link ManagementServer}),
 * and the restart a new runid that fails the server's unfinished jobs, as CloudStack does.
 */
final class ThreadServers implements ServerDriver {
    /** Live servers beat every 1.5 s, as CloudStack's do: the fenced scanner judges owners by it. */
    private static final int HEARTBEAT_MILLIS = 1500;
    /** After the dispatch, workers still running get this long past the run's deadline. */
    private static final long WORKERS_GRACE_SECONDS = 30;

    private final SimulationConfig config;
    private final InvariantMonitor monitor;
    private final OperationOutcomes outcomes = new OperationOutcomes();
    private final LatencyRecorder latency = new LatencyRecorder();
    private final ScannerStats scanStats = new ScannerStats();
    private final AtomicInteger crashesDone = new AtomicInteger();
    private final AtomicInteger jobsFailedByRestart = new AtomicInteger();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final List<ManagementServer> servers = new ArrayList<>();
    private final List<ClusterOperationGuard<State, Event>> guards = new ArrayList<>();
    private final List<ExecutorService> workers = new ArrayList<>();
    private final List<Thread> background = new ArrayList<>();
    private SimulationDatabase db;
    private OperationRunner runner;

    ThreadServers(SimulationConfig config, Consumer<String> progress) {
        this.config = config;
        this.monitor = new InvariantMonitor(progress);
    }

    @Override
    public int runConnections() {
        // Every server shares the run's database, and the run's own reads and judging.
        return config.servers() * SimulationDatabase.connectionsPerServer(config.workersPerServer()) + 2;
    }

    @Override
    public ClusterStateMachine<State, Event> machine(ClusterStateMachine<State, Event> bound) {
        return bound;
    }

    @Override
    public void start(OperationScript script, ClusterStateMachine<State, Event> machine, SimulationDatabase database,
            List<SimCluster> clusters) {
        this.db = database;
        this.runner = new OperationRunner(db, clusters, monitor, outcomes, latency, config.widenWindows());
        List<ScannerRunner> scanners = new ArrayList<>();
        for (int i = 0; i < config.servers(); i++) {
            ManagementServer server = new ManagementServer(i, Simulation.msid(i), 1);
            servers.add(server);
            guards.add(new ClusterOperationGuard<>(dao(machine, server)));
            scanners.add(new ScannerRunner(server, new ClusterStateScanner<>(dao(machine, server),
                    () -> Owner.of(server.msid, server.runid())), monitor, scanStats, config.widenWindows()));
            workers.add(Executors.newFixedThreadPool(config.workersPerServer()));
        }
        for (ScannerRunner scanner : scanners) {
            background.add(daemon("scanner", () -> {
                while (!stopping.get() && Sleep.millis(config.scannerMillis())) {
                    scanner.pass();
                }
            }));
        }
        background.add(daemon("heartbeat", () -> {
            while (!stopping.get() && Sleep.millis(HEARTBEAT_MILLIS)) {
                for (ManagementServer s : servers) {
                    heartbeat(s);
                }
            }
        }));
    }

    private KubernetesClusterStateDao<State, Event> dao(ClusterStateMachine<State, Event> machine,
            ManagementServer server) {
        return new KubernetesClusterStateDao<>(machine, db.source());
    }

    private void heartbeat(ManagementServer server) {
        long runid = server.runid();
        try {
            server.step(runid, () -> db.servers().beat(server.msid, runid));
        } catch (ManagementServer.Crashed down) {
            // A stopped server does not beat.
        } catch (SQLException e) {
            // The database is away (restarted, connection lost): the next beat tries again.
        }
    }

    @Override
    public boolean send(int server, ScriptedOperation op) {
        ManagementServer target = servers.get(server);
        if (!target.alive()) {
            return false;
        }
        ClusterOperationGuard<State, Event> guard = guards.get(server);
        workers.get(server).submit(() -> runner.run(op, target, guard));
        return true;
    }

    @Override
    public long progress() {
        // Anything that moves while the run is healthy: a scanner pass ends every few hundred
        // milliseconds, even one that meets a database error.
        return crashesDone.get() + scanStats.passes.get() + scanStats.databaseErrors.get() + outcomes.finished();
    }

    @Override
    public String status() {
        return String.format("%d crashes, %d scanner passes, %d clusters recovered", crashesDone.get(),
                scanStats.passes.get(), scanStats.recovered.get());
    }

    @Override
    public List<Runnable> faults(OperationScript script, long started) {
        return List.of(() -> crashes(script, started));
    }

    /** Each scripted crash: the server stops after its step in flight, stays down, then starts with a new runid. */
    private void crashes(OperationScript script, long started) {
        try {
            long nextRunid = 2;
            for (ScriptedCrash crash : script.crashes()) {
                if (!Sleep.until(started + TimeUnit.MILLISECONDS.toNanos(crash.atMillis()))) {
                    return;
                }
                ManagementServer server = servers.get(crash.server());
                if (!server.alive()) {
                    continue;
                }
                long ended = server.crash();
                monitor.crashed(server.index, ended);
                db.servers().markDown(server.msid);
                crashesDone.incrementAndGet();
                if (!Sleep.millis(crash.downMillis())) {
                    return;
                }
                long runid = nextRunid++;
                jobsFailedByRestart.addAndGet(db.servers().started(server.msid, runid));
                server.restart(runid);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("crash schedule: " + e, e);
        }
    }

    @Override
    public RuntimeException failure() {
        return null;
    }

    @Override
    public void stop(long deadlineNanos) throws InterruptedException {
        for (ExecutorService pool : workers) {
            pool.shutdown();
        }
        for (ExecutorService pool : workers) {
            long wait = Math.max(1, deadlineNanos - System.nanoTime()) + TimeUnit.SECONDS.toNanos(WORKERS_GRACE_SECONDS);
            if (!pool.awaitTermination(wait, TimeUnit.NANOSECONDS)) {
                pool.shutdownNow();
            }
        }
        stopping.set(true);
        for (Thread t : background) {
            t.join(10_000);
        }
    }

    @Override
    public ScannerStats judgingStats() {
        return scanStats;
    }

    @Override
    public InvariantMonitor judgingMonitor() {
        return monitor;
    }

    @Override
    public RunReport.Counts counts(int notDispatched, int stuck, int illegal) {
        return new RunReport.Counts(outcomes, latency, scanStats, monitor, crashesDone.get(), jobsFailedByRestart.get(),
                notDispatched, stuck, illegal);
    }

    @Override
    public void decorate(SimulationReport report) {
        // The layout's common keys say everything of a threads run.
    }

    @Override
    public void close() {
        stopping.set(true);
        for (ExecutorService pool : workers) {
            pool.shutdownNow();
        }
        for (Thread t : background) {
            t.interrupt();
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, "cks-simulate-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
