// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * A simulation run ({@code cks-state simulate}), whichever way its servers run ({@link ServerDriver}:
 * threads of this JVM, or processes of their own): prepare the database,
 * start the servers, send each scripted operation to its server when it is due (or to the next
 * one up), let the faults strike, stop the servers, recover what the last faults left with a few
 * scanner passes, and judge from the database. Every wait is bounded; a run that stops moving fails
 * with a thread dump ({@link Watchdog}).
 */
public final class Simulation {
    /** Server {@code i}'s msid; the judging scanner's is the base itself. */
    static final long MSID_BASE = 0x5EED_0000L;
    private static final int FINAL_PASSES = 8;
    /** A judging pass that meets a database error (a node just back) is tried again, this often at most. */
    private static final int FINAL_PASS_RETRIES = 20;
    /** The fault schedules end within the script's time plus this. */
    private static final long FAULTS_GRACE_SECONDS = 120;

    /** The default bound of {@link #stallAfterSeconds}. */
    public static final int DEFAULT_STALL_SECONDS = 60;

    /** Builds a run's servers (the processes' driver makes its temp folder). */
    @FunctionalInterface
    private interface Drivers {
        ServerDriver make() throws IOException;
    }

    private final SimulationConfig config;
    private final DatabaseTopology topology;
    private final Drivers drivers;
    private final Consumer<String> progress;
    private long stallMillis = TimeUnit.SECONDS.toMillis(DEFAULT_STALL_SECONDS);
    private final AtomicInteger dispatched = new AtomicInteger();
    private final AtomicInteger rerouted = new AtomicInteger();
    /** The run's own threads (faults, progress), stopped whatever way the run ends. */
    private final List<Thread> helpers = new ArrayList<>();
    private ServerDriver driver;

    private Simulation(SimulationConfig config, DatabaseTopology topology, Drivers drivers, Consumer<String> progress) {
        this.config = config;
        this.topology = topology;
        this.drivers = drivers;
        this.progress = progress;
    }

    /** Every server a thread of this JVM, on the config's database (or an embedded H2). */
    public static Simulation threads(SimulationConfig config, Consumer<String> progress) {
        return new Simulation(config, DatabaseTopology.of(config), () -> new ThreadServers(config, progress), progress);
    }

    /** Every server a process of its own ({@code simulate --processes}), on the options' databases. */
    public static Simulation processes(SimulationConfig config, ProcessOptions options, Consumer<String> progress) {
        DatabaseTopology topology = DatabaseTopology.of(config, options);
        return new Simulation(config, topology, () -> new ProcessServers(config, options, topology, progress),
                progress);
    }

    /** The script's fingerprint for a seed: same seed, same script. */
    public static long scriptFingerprint(SimulationConfig config) {
        return OperationScript.generate(config).fingerprint();
    }

    /** Without progress for this long the run fails with {@link Watchdog.Stalled} (thread dump included). */
    public Simulation stallAfterSeconds(int seconds) {
        if (seconds < 1) {
            throw new IllegalArgumentException("stall seconds must be at least 1, not " + seconds);
        }
        this.stallMillis = TimeUnit.SECONDS.toMillis(seconds);
        return this;
    }

    static long msid(int server) {
        return MSID_BASE + server + 1;
    }

    public SimulationReport run() throws SQLException, InterruptedException, IOException {
        driver = drivers.make();
        OperationScript script = OperationScript.generate(config);
        ClusterStateMachine<State, Event> machine = driver.machine(
                ClusterStateMachine.bind(State.class, Event.class).withMode(config.mode()));
        long runStarted = System.nanoTime();
        try (ServerDriver servers = driver; SimulationDatabase db = topology.open(driver.runConnections())) {
            db.prepare();
            if (config.mode() == StateMode.FENCED) {
                try (Connection c = db.open()) {
                    CloudStackSchema.migrateUp(c);
                }
            }
            List<SimCluster> clusters = db.seedClusters(script.initialStates());
            for (int i = 0; i < config.servers(); i++) {
                db.registerServer(msid(i), 1, "ms-" + i);
            }
            long[] certificationsBefore = topology.certifications();
            servers.start(script, machine, db, clusters);
            // The script's clock starts once the servers are up.
            long started = System.nanoTime();
            Watchdog watchdog = Watchdog.start(() -> dispatched.get() + servers.progress(), stallMillis);
            try {
                List<Thread> faults = new ArrayList<>();
                for (Runnable schedule : servers.faults(script, started)) {
                    faults.add(daemon("faults", schedule));
                }
                daemon("progress", () -> report(script, started));
                int notDispatched = dispatch(script, started, watchdog);
                awaitFaults(faults, watchdog);
                servers.stop(started + TimeUnit.SECONDS.toNanos(config.maxSeconds()));
                watchdog.throwIfStalled();
                judgingPasses(machine, db);
                Map<Long, String> finalStates = db.states();
                int stuck = RunReport.stuck(machine, finalStates);
                int illegal = HistoryCheck.illegalTransitions(machine, clusters, db.history(), finalStates);
                RunReport.Counts counts = servers.counts(notDispatched, stuck, illegal);
                counts.outcomes().rerouted.set(rerouted.get());
                SimulationReport r = RunReport.build(config, script, topology.describe(db), counts, finalStates,
                        runStarted);
                if (certificationsBefore != null) {
                    r.section("operations").put("certification_failures",
                            topology.certificationFailuresSince(certificationsBefore));
                }
                servers.decorate(r);
                return r;
            } catch (InterruptedException e) {
                watchdog.throwIfStalled();
                throw e;
            } finally {
                watchdog.close();
                stopHelpers();
            }
        }
    }

    /** Sends each scripted operation to its server when it is due, or to the next one up (a load balancer's choice). */
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
                sent = driver.send((op.server() + attempt) % config.servers(), op);
                if (sent && attempt > 0) {
                    rerouted.incrementAndGet();
                }
                if (!sent && attempt % config.servers() == config.servers() - 1) {
                    Sleep.millis(5); // every server is down for a moment
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

    private void awaitFaults(List<Thread> faults, Watchdog watchdog) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(config.maxSeconds() + FAULTS_GRACE_SECONDS);
        for (Thread t : faults) {
            while (t.isAlive()) {
                watchdog.throwIfStalled();
                t.join(250);
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the fault schedule did not finish in time");
                }
            }
        }
        if (driver.failure() != null) {
            throw driver.failure();
        }
    }

    /** After the storm every server is stopped or idle: a few passes recover what the last faults left. */
    private void judgingPasses(ClusterStateMachine<State, Event> machine, SimulationDatabase db) {
        ManagementServer judge = new ManagementServer(-1, MSID_BASE, 1);
        ClusterStateScanner<State, Event> scanner = new ClusterStateScanner<>(
                new KubernetesClusterStateDao<>(machine, db.source()),
                () -> Owner.of(MSID_BASE, 1));
        ScannerStats stats = driver.judgingStats();
        ScannerRunner passes = new ScannerRunner(judge, scanner, driver.judgingMonitor(), stats, false);
        int failures = 0;
        for (int i = 0; i < FINAL_PASSES; i++) {
            int moved = stats.recovered.get() + stats.reconciled.get();
            int errors = stats.databaseErrors.get();
            passes.pass();
            if (stats.databaseErrors.get() > errors) {
                // A pooled connection to a database node that was killed and came back: try again.
                if (++failures > FINAL_PASS_RETRIES || !Sleep.millis(500)) {
                    throw new IllegalStateException("the judging scanner passes kept failing on the database");
                }
                i--;
                continue;
            }
            if (i > 0 && stats.recovered.get() + stats.reconciled.get() == moved) {
                break;
            }
        }
    }

    private void report(OperationScript script, long started) {
        while (Sleep.millis(1000)) {
            progress.accept(String.format("[simulate] %.1fs: %d/%d operations dispatched, %s",
                    (System.nanoTime() - started) / 1e9, dispatched.get(), script.operations().size(), driver.status()));
        }
    }

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
