package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.internal.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.internal.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.internal.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.ReconcileResult;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;
import org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException;

/**
 * {@code simulate --processes}: every management server is its own JVM ({@link ServerProcess}), the
 * tool started again with the same class path. The parent prepares the database, sends each server
 * its scripted operations, and injects the faults as signals: a crash is a SIGKILL and a restart a
 * new process with a new runid; a pause is a SIGSTOP past the heartbeat threshold, then a SIGCONT,
 * after which the server finds itself marked Down by its peers and fences itself. The checker
 * ({@link ProcessChecker}) judges from the database and from the logs the processes wrote.
 */
public final class ProcessSimulation {
    /** The parent's reads: set-up, the fault injector's, and the judging at the end, one at a time. */
    private static final int PARENT_CONNECTIONS = 4;

    private static final int FINAL_PASSES = 8;
    private static final int FINAL_PASS_RETRIES = 20;
    /** Set (to anything): the run's logs stay in their temp folder, for a look at a failed run. */
    static final String KEEP_LOGS = "cks.state.simulate.keep-logs";

    private final SimulationConfig config;
    private final ProcessOptions options;
    private final Consumer<String> progress;
    private long stallMillis = TimeUnit.SECONDS.toMillis(ControlPlaneSimulation.DEFAULT_STALL_SECONDS);

    private final AtomicInteger dispatched = new AtomicInteger();
    private ServerFleet fleet;

    public ProcessSimulation(SimulationConfig config, ProcessOptions options, Consumer<String> progress) {
        this.config = config;
        this.options = options;
        this.progress = progress;
    }

    public ProcessSimulation stallAfterSeconds(int seconds) {
        if (seconds < 1) {
            throw new IllegalArgumentException("stall seconds must be at least 1, not " + seconds);
        }
        this.stallMillis = TimeUnit.SECONDS.toMillis(seconds);
        return this;
    }

    public SimulationReport run() throws SQLException, InterruptedException, IOException {
        OperationScript script = OperationScript.generate(config);
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class)
                .withMode(config.mode()).withHeartbeatThreshold(options.heartbeatThresholdMillis());
        long runStarted = System.nanoTime();
        Path dir = Files.createTempDirectory("cks-state-processes-");
        try (SimulationDatabase db = SimulationDatabase.attach(options.urlOf(0), config.user(), config.password(),
                PARENT_CONNECTIONS);
                ActionLog faultLog = new ActionLog(dir.resolve("parent.log"))) {
            db.prepare();
            if (config.mode() == StateMode.FENCED) {
                try (Connection c = db.open()) {
                    CloudStackSchema.migrateUp(c);
                }
            }
            List<SimCluster> clusters = db.seedClusters(script.initialStates());
            db.setting(CloudStackConfiguration.HEARTBEAT_THRESHOLD, Long.toString(options.heartbeatThresholdMillis()));
            fleet = new ServerFleet(config, options, dir, faultLog);
            long[] certificationsBefore = options.jdbcUrls().size() > 1
                    ? GaleraCertifications.read(options.jdbcUrls(), config.user(), config.password()) : null;
            for (int i = 0; i < config.servers(); i++) {
                db.registerServer(ServerFleet.msid(i), 1, "ms-" + i);
            }
            try {
                fleet.startAll();
            } catch (RuntimeException | InterruptedException e) {
                fleet.close();
                throw e;
            }
            long started = System.nanoTime();
            Watchdog watchdog = Watchdog.start(() -> dispatched.get() + fleet.kills.get() + fleet.pausesDone.get()
                    + logBytes(), stallMillis);
            try {
                ServerFleet.SupervisorLoop supervisor = fleet.new SupervisorLoop();
                Thread supervising = daemon("supervisor", supervisor);
                Thread faulting = daemon("faults", () -> fleet.runFaults(script, started));
                DatabaseNodeFaults nodeFaults = new DatabaseNodeFaults(options, faultLog, dir);
                AtomicReference<RuntimeException> nodeFailure = new AtomicReference<>();
                long span = script.operations().isEmpty() ? 1
                        : script.operations().get(script.operations().size() - 1).atMillis();
                Thread nodeFaulting = daemon("db-node-faults", () -> {
                    try {
                        nodeFaults.run(config.seed(), span, started);
                    } catch (RuntimeException e) {
                        nodeFailure.set(e);
                    }
                });
                Thread reporter = daemon("progress", () -> report(script, started));
                int notDispatched = dispatch(script, started, watchdog);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(config.maxSeconds() + 120L);
                while (faulting.isAlive() || nodeFaulting.isAlive()) {
                    watchdog.throwIfStalled();
                    faulting.join(250);
                    nodeFaulting.join(250);
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the fault schedule did not finish in time");
                    }
                }
                if (nodeFailure.get() != null) {
                    throw nodeFailure.get();
                }
                if (fleet.failure.get() != null) {
                    throw fleet.failure.get();
                }
                supervisor.stop = true;
                supervising.join(5_000);
                reporter.interrupt();
                int killedAtEnd = fleet.stopAll();
                watchdog.throwIfStalled();
                ProcessChecker checker = new ProcessChecker(script.operations(), ControlPlaneSimulation.MSID_BASE);
                finalPasses(machine, db, checker.scan);
                checker.replay(fleet.logs, dir.resolve("parent.log"));
                Map<Long, String> finalStates = db.states();
                int stuck = RunReport.stuck(machine, finalStates);
                int illegal = HistoryCheck.illegalTransitions(machine, clusters, db.history(), finalStates);
                int jobsFailed = jobsFailedOnRestart();
                SimulationReport r = RunReport.build(config, script, db.describe() + (options.jdbcUrls().size() > 1
                        ? " and " + (options.jdbcUrls().size() - 1) + " more node(s)" : ""),
                        new RunReport.Counts(checker.outcomes, checker.latency, checker.scan, checker.monitor,
                                fleet.kills.get(), jobsFailed, notDispatched, stuck, illegal), finalStates, runStarted);
                if (options.jdbcUrls().size() > 1) {
                    r.section("operations").put("certification_failures",
                            GaleraCertifications.since(certificationsBefore, options.jdbcUrls(), config.user(),
                                    config.password()));
                }
                Map<String, Object> setup = r.section("setup");
                setup.put("processes", true);
                setup.put("database_urls", options.jdbcUrls().size());
                setup.put("heartbeat_threshold_ms", options.heartbeatThresholdMillis());
                Map<String, Object> crash = r.section("crashes");
                crash.put("pauses", fleet.pausesDone.get());
                crash.put("db_node_kills", nodeFaults.kills.get());
                crash.put("processes_started", fleet.processesStarted.get());
                crash.put("self_fenced", checker.selfFenced);
                crash.put("peers_marked_down", checker.peersMarkedDown);
                crash.put("killed_at_end", killedAtEnd);
                crash.put("unexpected_exits", fleet.unexpectedExits.get());
                return r;
            } finally {
                watchdog.close();
                stopHelpers();
                fleet.close();
            }
        } finally {
            if (System.getProperty(KEEP_LOGS) == null) {
                TempTree.delete(dir);
            } else {
                progress.accept("[simulate] logs kept in " + dir);
            }
        }
    }

    /** Sends each scripted operation to its server when it is due, or to the next one up. */
    private int dispatch(OperationScript script, long started, Watchdog watchdog) {
        long deadline = started + TimeUnit.SECONDS.toNanos(config.maxSeconds());
        int notDispatched = 0;
        for (ScriptedOperation op : script.operations()) {
            watchdog.throwIfStalled();
            if (System.nanoTime() > deadline) {
                notDispatched++;
                continue;
            }
            Sleep.until(started + TimeUnit.MILLISECONDS.toNanos(op.atMillis()));
            boolean sent = false;
            for (int attempt = 0; !sent && System.nanoTime() < deadline; attempt++) {
                ChildServer target;
                target = fleet.server((op.server() + attempt) % fleet.size());
                sent = target.alive() && target.send(ProcessCommands.line(op));
                if (!sent && attempt % fleet.size() == fleet.size() - 1) {
                    Sleep.millis(20); // every server is down for a moment
                }
            }
            if (sent) {
                dispatched.incrementAndGet();
            } else {
                notDispatched++;
            }
        }
        return notDispatched;
    }

    /** After the storm every server is stopped: a few passes recover what the last faults left. */
    private static void finalPasses(ClusterStateMachine<State, Event> machine, SimulationDatabase db,
            ScannerStats stats) {
        ClusterStateScanner<State, Event> scanner = new ClusterStateScanner<>(
                new KubernetesClusterStateDao<>(machine, db.source()).withHistory(ControlPlaneSimulation.MSID_BASE),
                () -> Owner.of(ControlPlaneSimulation.MSID_BASE, 1));
        int failures = 0;
        for (int i = 0; i < FINAL_PASSES; i++) {
            RecoveryResult<State> recovery;
            ReconcileResult<State> reconcile;
            try {
                recovery = scanner.recoverOrphanedOperationStates();
                reconcile = scanner.reconcileAlertClusters(id -> true);
            } catch (StateStoreException e) {
                // A pooled connection to a database node that was killed and came back: try again.
                stats.databaseErrors.incrementAndGet();
                if (++failures > FINAL_PASS_RETRIES || !Sleep.millis(500)) {
                    throw e;
                }
                i--;
                continue;
            }
            stats.record(recovery, reconcile);
            if (recovery.recoveredIds().isEmpty() && reconcile.moved().isEmpty()) {
                break;
            }
        }
    }

    /** Jobs the restarts failed: the UP lines of the server logs. */
    private int jobsFailedOnRestart() throws IOException {
        int failed = 0;
        for (Path log : fleet.logs) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) {
                    String[] w = line.split(" ");
                    if (w.length >= 3 && w[1].equals("UP")) {
                        failed += Integer.parseInt(w[2]);
                    }
                }
            }
        }
        return failed;
    }

    private long logBytes() {
        long n = 0;
        synchronized (fleet.logs) {
            for (Path p : fleet.logs) {
                n += p.toFile().length();
            }
        }
        return n;
    }

    private void report(OperationScript script, long started) {
        while (Sleep.millis(1000)) {
            progress.accept(String.format("[simulate] %.1fs: %d/%d operations dispatched, %d kills, %d pauses,"
                    + " %d processes started", (System.nanoTime() - started) / 1e9, dispatched.get(),
                    script.operations().size(), fleet.kills.get(), fleet.pausesDone.get(), fleet.processesStarted.get()));
        }
    }

    /** The run's own threads (supervisor, faults, progress), stopped whatever way the run ends. */
    private final List<Thread> helpers = new ArrayList<>();

    private Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, "cks-simulate-" + name);
        t.setDaemon(true);
        helpers.add(t);
        t.start();
        return t;
    }

    /** Interrupts the run's threads and waits (bounded) until they are gone. */
    private void stopHelpers() {
        for (Thread t : helpers) {
            t.interrupt();
        }
        for (Thread t : helpers) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
