// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.tool.settings.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * The management servers as processes of their own ({@link ServerProcess}), the tool started again
 * with the same class path: operations go to them on standard input, a crash is a SIGKILL and a
 * restart a new process with a new runid, a pause a SIGSTOP past the heartbeat threshold, then a
 * SIGCONT ({@link ServerFleet}); database nodes are killed and started again
 * ({@link DatabaseNodeFaults}). What they did is judged from their logs ({@link ProcessChecker}).
 */
final class ProcessServers implements ServerDriver {
    /** The run's reads: set-up, the judging, one at a time. */
    private static final int RUN_CONNECTIONS = 4;
    /** Set (to anything): the run's logs stay in their temp folder, for a look at a failed run. */
    static final String KEEP_LOGS = "cks.state.simulate.keep-logs";

    private final SimulationConfig config;
    private final ProcessOptions options;
    private final DatabaseTopology topology;
    private final Consumer<String> progress;
    private final Path dir;
    private final ActionLog faultLog;
    private ProcessChecker checker;
    private final DatabaseNodeFaults nodeFaults;
    private final AtomicReference<RuntimeException> nodeFailure = new AtomicReference<>();
    private ServerFleet fleet;
    private ServerFleet.SupervisorLoop supervisor;
    private Thread supervising;
    private int killedAtEnd;

    ProcessServers(SimulationConfig config, ProcessOptions options, DatabaseTopology topology,
            Consumer<String> progress) throws IOException {
        this.config = config;
        this.options = options;
        this.topology = topology;
        this.progress = progress;
        this.dir = Files.createTempDirectory("cks-state-processes-");
        this.faultLog = new ActionLog(dir.resolve("parent.log"));
        this.nodeFaults = new DatabaseNodeFaults(topology, faultLog, dir);
    }

    @Override
    public int runConnections() {
        return RUN_CONNECTIONS;
    }

    @Override
    public ClusterStateMachine<State, Event> machine(ClusterStateMachine<State, Event> bound) {
        return bound.withHeartbeatThreshold(options.heartbeatThresholdMillis());
    }

    @Override
    public void start(OperationScript script, ClusterStateMachine<State, Event> machine, SimulationDatabase db,
            List<SimCluster> clusters) throws SQLException, InterruptedException {
        checker = new ProcessChecker(script.operations(), Simulation.MSID_BASE);
        db.setting(CloudStackConfiguration.HEARTBEAT_THRESHOLD, Long.toString(options.heartbeatThresholdMillis()));
        fleet = new ServerFleet(config, options, topology, dir, faultLog);
        fleet.startAll();
        supervisor = fleet.new SupervisorLoop();
        supervising = new Thread(supervisor, "cks-simulate-supervisor");
        supervising.setDaemon(true);
        supervising.start();
    }

    @Override
    public boolean send(int server, ScriptedOperation op) {
        ChildServer target = fleet.server(server);
        return target.alive() && target.send(ProcessCommands.line(op));
    }

    @Override
    public long progress() {
        return fleet.kills.get() + fleet.pausesDone.get() + logBytes();
    }

    @Override
    public String status() {
        return String.format("%d kills, %d pauses, %d processes started", fleet.kills.get(), fleet.pausesDone.get(),
                fleet.processesStarted.get());
    }

    @Override
    public List<Runnable> faults(OperationScript script, long started) {
        long span = script.operations().isEmpty() ? 1
                : script.operations().get(script.operations().size() - 1).atMillis();
        return List.of(() -> fleet.runFaults(script, started), () -> {
            try {
                nodeFaults.run(config.seed(), span, started);
            } catch (RuntimeException e) {
                nodeFailure.set(e);
            }
        });
    }

    @Override
    public RuntimeException failure() {
        return nodeFailure.get() != null ? nodeFailure.get() : fleet.failure.get();
    }

    @Override
    public void stop(long deadlineNanos) throws InterruptedException {
        supervisor.stop = true;
        supervising.join(5_000);
        killedAtEnd = fleet.stopAll();
    }

    @Override
    public ScannerStats judgingStats() {
        return checker.scan;
    }

    @Override
    public InvariantMonitor judgingMonitor() {
        // The checker's monitor is rebuilt from the servers' logs; the judging passes come after them.
        return new InvariantMonitor();
    }

    @Override
    public RunReport.Counts counts(int notDispatched, int stuck, int illegal) throws IOException {
        checker.replay(fleet.logs, dir.resolve("parent.log"));
        return new RunReport.Counts(checker.outcomes, checker.latency, checker.scan, checker.monitor, fleet.kills.get(),
                jobsFailedOnRestart(), notDispatched, stuck, illegal);
    }

    @Override
    public void decorate(SimulationReport r) {
        Map<String, Object> setup = r.section("setup");
        setup.put("processes", true);
        setup.put("database_urls", topology.urls().size());
        setup.put("heartbeat_threshold_ms", options.heartbeatThresholdMillis());
        Map<String, Object> crash = r.section("crashes");
        crash.put("pauses", fleet.pausesDone.get());
        crash.put("db_node_kills", nodeFaults.kills.get());
        crash.put("processes_started", fleet.processesStarted.get());
        crash.put("self_fenced", checker.selfFenced);
        crash.put("peers_marked_down", checker.peersMarkedDown);
        crash.put("killed_at_end", killedAtEnd);
        crash.put("unexpected_exits", fleet.unexpectedExits.get());
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

    @Override
    public void close() {
        try {
            if (supervisor != null) {
                supervisor.stop = true;
            }
            if (fleet != null) {
                fleet.close();
            }
            faultLog.close();
        } catch (IOException e) {
            progress.accept("[simulate] the fault log did not close: " + e.getMessage());
        } finally {
            if (System.getProperty(KEEP_LOGS) == null) {
                TempTree.delete(dir);
            } else {
                progress.accept("[simulate] logs kept in " + dir);
            }
        }
    }
}
