package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.internal.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.internal.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;

/**
 * A multi-server CKS control plane on a real database: management servers run the scripted
 * operations through the library's guard, crash and come back, and run the status scanner.
 */
public final class ControlPlaneSimulation {
    static final long MSID_BASE = 0x5EED_0000L;
    private static final int FINAL_PASSES = 8;

    private final SimulationConfig config;
    private final Consumer<String> progress;

    public ControlPlaneSimulation(SimulationConfig config, Consumer<String> progress) {
        this.config = config;
        this.progress = progress;
    }

    /** The script's fingerprint for a seed: same seed, same script. */
    public static long scriptFingerprint(SimulationConfig config) {
        return OperationScript.generate(config).fingerprint();
    }

    /** Without progress for this long the run fails with {@link Watchdog.Stalled} (thread dump included). */
    private long stallMillis = TimeUnit.SECONDS.toMillis(DEFAULT_STALL_SECONDS);

    /** The default bound of {@link #stallAfterSeconds}. */
    public static final int DEFAULT_STALL_SECONDS = 60;

    public ControlPlaneSimulation stallAfterSeconds(int seconds) {
        if (seconds < 1) {
            throw new IllegalArgumentException("stall seconds must be at least 1, not " + seconds);
        }
        this.stallMillis = TimeUnit.SECONDS.toMillis(seconds);
        return this;
    }

    public SimulationReport run() throws SQLException, InterruptedException {
        OperationScript script = OperationScript.generate(config);
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);
        long runStarted = System.nanoTime();
        try (SimulationDatabase db = SimulationDatabase.create(config)) {
            db.prepare();
            if (fenced()) {
                try (Connection c = db.open()) {
                    CloudStackSchema.migrateUp(c);
                }
            }
            List<SimCluster> clusters = db.seedClusters(script.initialStates());
            InvariantMonitor monitor = new InvariantMonitor();
            OperationOutcomes outcomes = new OperationOutcomes();
            LatencyRecorder latency = new LatencyRecorder();
            ScannerStats scanStats = new ScannerStats();
            OperationRunner runner = new OperationRunner(db, clusters, monitor, outcomes, latency, config.widenWindows());

            List<ManagementServer> servers = new ArrayList<>();
            List<ClusterOperationGuard<State, Event>> guards = new ArrayList<>();
            List<ScannerRunner> scanners = new ArrayList<>();
            List<ExecutorService> workers = new ArrayList<>();
            for (int i = 0; i < config.servers(); i++) {
                ManagementServer server = new ManagementServer(i, MSID_BASE + i + 1, 1);
                db.registerServer(server.msid, server.runid(), "ms-" + i);
                servers.add(server);
                guards.add(guard(machine, db, server));
                scanners.add(new ScannerRunner(server, scanner(machine, db, server), monitor, scanStats,
                        config.widenWindows()));
                workers.add(Executors.newFixedThreadPool(config.workersPerServer()));
            }
            // The script's clock starts once the database is ready.
            long started = System.nanoTime();

            AtomicBoolean stopScanners = new AtomicBoolean();
            AtomicInteger crashesDone = new AtomicInteger();
            AtomicInteger jobsFailedByRestart = new AtomicInteger();
            AtomicInteger dispatched = new AtomicInteger();
            // Progress: anything that moves while the run is healthy (a scanner pass ends every few
            // hundred milliseconds, even one that meets a database error).
            Watchdog watchdog = Watchdog.start(() -> dispatched.get() + crashesDone.get() + scanStats.passes.get()
                    + scanStats.databaseErrors.get() + outcomes.finished(), stallMillis);
            try {
                List<Thread> background = new ArrayList<>();
                for (ScannerRunner scanner : scanners) {
                    background.add(start("scanner", () -> {
                        while (!stopScanners.get()) {
                            Sleep.millis(config.scannerMillis());
                            scanner.pass();
                        }
                    }));
                }
                // Live servers beat every 1.5 s, as CloudStack's do: the fenced scanner judges owners by it.
                background.add(start("heartbeat", () -> {
                    while (!stopScanners.get() && Sleep.millis(1500)) {
                        for (ManagementServer s : servers) {
                            heartbeat(db, s);
                        }
                    }
                }));
                Thread crasher = start("crasher", () -> runCrashes(script, servers, monitor, db, started, crashesDone,
                        jobsFailedByRestart));
                long deadline = started + TimeUnit.SECONDS.toNanos(config.maxSeconds());
                Thread reporter = start("progress", () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        if (!Sleep.millis(1000)) {
                            return;
                        }
                        progress.accept(String.format("[simulate] %.1fs: %d/%d operations dispatched, %d crashes,"
                                + " %d scanner passes, %d clusters recovered", (System.nanoTime() - started) / 1e9,
                                dispatched.get(), script.operations().size(), crashesDone.get(), scanStats.passes.get(),
                                scanStats.recovered.get()));
                    }
                });

                int notDispatched = 0;
                for (ScriptedOperation op : script.operations()) {
                    watchdog.throwIfStalled();
                    long due = started + TimeUnit.MILLISECONDS.toNanos(op.atMillis());
                    if (System.nanoTime() > deadline) {
                        notDispatched++;
                        continue;
                    }
                    Sleep.until(due);
                    ManagementServer target = pickServer(servers, op.server(), outcomes);
                    ClusterOperationGuard<State, Event> guard = guards.get(target.index);
                    workers.get(target.index).submit(() -> runner.run(op, target, guard));
                    dispatched.incrementAndGet();
                }
                for (ExecutorService pool : workers) {
                    pool.shutdown();
                }
                for (ExecutorService pool : workers) {
                    if (!pool.awaitTermination(Math.max(1, deadline - System.nanoTime()) + TimeUnit.SECONDS.toNanos(30),
                            TimeUnit.NANOSECONDS)) {
                        pool.shutdownNow();
                    }
                }
                crasher.join();
                stopScanners.set(true);
                for (Thread t : background) {
                    t.join();
                }
                reporter.interrupt();
                reporter.join();

                // After the storm: every server is up and its old jobs are failed; a few more passes.
                for (int i = 0; i < FINAL_PASSES; i++) {
                    int moved = scanStats.recovered.get() + scanStats.reconciled.get();
                    scanners.get(0).pass();
                    if (i > 0 && scanStats.recovered.get() + scanStats.reconciled.get() == moved) {
                        break;
                    }
                }
                watchdog.throwIfStalled();

                Map<Long, String> finalStates = db.states();
                int stuck = RunReport.stuck(machine, finalStates);
                int illegal = HistoryCheck.illegalTransitions(machine, clusters, db.history(), finalStates);
                return RunReport.build(config, script, db.describe(), new RunReport.Counts(outcomes, latency, scanStats,
                        monitor, crashesDone.get(), jobsFailedByRestart.get(), notDispatched, stuck, illegal),
                        finalStates, runStarted);
            } catch (InterruptedException e) {
                watchdog.throwIfStalled();
                throw e;
            } finally {
                watchdog.close();
            }
        }
    }

    private boolean fenced() {
        return config.mode() == StateMode.FENCED;
    }

    private KubernetesClusterStateDao<State, Event> dao(ClusterStateMachine<State, Event> machine,
            SimulationDatabase db, ManagementServer server) {
        return new KubernetesClusterStateDao<>(machine.withMode(config.mode()), db.source()).withHistory(server.msid);
    }

    private ClusterOperationGuard<State, Event> guard(ClusterStateMachine<State, Event> machine,
            SimulationDatabase db, ManagementServer server) {
        return new ClusterOperationGuard<>(dao(machine, db, server));
    }

    private ClusterStateScanner<State, Event> scanner(ClusterStateMachine<State, Event> machine,
            SimulationDatabase db, ManagementServer server) {
        return new ClusterStateScanner<>(dao(machine, db, server), () -> Owner.of(server.msid,
                server.runid()));
    }

    private static void heartbeat(SimulationDatabase db, ManagementServer server) {
        long runid = server.runid();
        try {
            server.step(runid, () -> {
                db.heartbeat(server.msid, runid);
                return null;
            });
        } catch (ManagementServer.Crashed down) {
            // A stopped server does not beat.
        } catch (SQLException e) {
            // The database is away (restarted, connection lost): the next beat tries again.
        }
    }

    private void runCrashes(OperationScript script, List<ManagementServer> servers, InvariantMonitor monitor,
            SimulationDatabase db, long started, AtomicInteger crashesDone, AtomicInteger jobsFailed) {
        try {
            long nextRunid = 2;
            for (ScriptedCrash crash : script.crashes()) {
                Sleep.until(started + TimeUnit.MILLISECONDS.toNanos(crash.atMillis()));
                ManagementServer server = servers.get(crash.server());
                if (!server.alive()) {
                    continue;
                }
                long ended = server.crash();
                monitor.crashed(server.index, ended);
                db.markServerDown(server.msid);
                crashesDone.incrementAndGet();
                Sleep.millis(crash.downMillis());
                long runid = nextRunid++;
                jobsFailed.addAndGet(db.failJobsOfRestartedServer(server.msid, runid));
                server.restart(runid);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("crash schedule: " + e, e);
        }
    }

    /** The scripted server, or the next one that is up (a load balancer's choice). */
    private static ManagementServer pickServer(List<ManagementServer> servers, int preferred,
            OperationOutcomes outcomes) {
        for (int i = 0; ; i++) {
            ManagementServer s = servers.get((preferred + i) % servers.size());
            if (s.alive()) {
                if (i > 0) {
                    outcomes.rerouted.incrementAndGet();
                }
                return s;
            }
            if (i > 0 && i % servers.size() == 0) {
                Sleep.millis(5);
            }
        }
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, "cks-simulate-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }


}
