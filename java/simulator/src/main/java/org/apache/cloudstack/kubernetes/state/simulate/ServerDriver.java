// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.SQLException;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * How a {@link Simulation} runs its management servers: as threads of this JVM
 * ({@link ThreadServers}) or as processes of their own ({@link ProcessServers}). The run prepares
 * the database, dispatches the script, waits, judges and reports; the driver starts the servers,
 * hands them operations, injects their faults, stops them and says what they did.
 */
interface ServerDriver extends AutoCloseable {
    /** The connections the run's own database pool needs. */
    int runConnections();

    /** The machine the servers and the judging scanner use: the bound one, or its threshold changed. */
    ClusterStateMachine<State, Event> machine(ClusterStateMachine<State, Event> bound);

    /** Starts the servers of {@code script} on the prepared database (their mshost rows are written). */
    void start(OperationScript script, ClusterStateMachine<State, Event> machine, SimulationDatabase db,
            List<SimCluster> clusters) throws SQLException, InterruptedException;

    /** Hands {@code op} to server {@code server}; false when that server is down now. */
    boolean send(int server, ScriptedOperation op);

    /** A number that moves while the servers make progress (the watchdog's). */
    long progress();

    /** The progress line's part about the servers. */
    String status();

    /** The fault schedules of the script, each run on a thread of its own from {@code started}. */
    List<Runnable> faults(OperationScript script, long started);

    /** A failure of a fault schedule or of the servers' supervision, for the run to throw; or null. */
    RuntimeException failure();

    /** After the dispatch and the faults: the servers finish their work (bounded) and stop. */
    void stop(long deadlineNanos) throws InterruptedException;

    /** Where the judging passes after the storm count their work. */
    ScannerStats judgingStats();

    /** The monitor the judging passes report recoveries to. */
    InvariantMonitor judgingMonitor();

    /** What the run counted, once the servers stopped and the judging passes ran. */
    RunReport.Counts counts(int notDispatched, int stuck, int illegal) throws java.io.IOException;

    /** The driver's own keys of the report. */
    void decorate(SimulationReport report);

    @Override
    void close();
}
