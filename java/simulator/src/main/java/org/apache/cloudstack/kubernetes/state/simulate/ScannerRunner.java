// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.ReconcileResult;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;
import org.apache.cloudstack.kubernetes.state.jdbc.ScanListener;
import org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * One server's status scanner. Passes of all servers are serialized by one lock, as CloudStack's
 * global lock does; each recovery compare-and-set runs under the cluster's tracker lock so the
 * monitor knows which operations it failed.
 */
final class ScannerRunner implements ScanListener {
    /** CloudStack's scanner runs under a global lock: one pass at a time across servers. */
    private static final ReentrantLock GLOBAL_LOCK = new ReentrantLock();

    private final ManagementServer server;
    private final ClusterStateScanner<State, Event> scanner;
    private final InvariantMonitor monitor;
    private final ScannerStats stats;
    private final boolean widenWindows;
    private final ActionEvents events;

    ScannerRunner(ManagementServer server, ClusterStateScanner<State, Event> scanner,
            InvariantMonitor monitor, ScannerStats stats, boolean widenWindows) {
        this(server, scanner, monitor, stats, widenWindows, ActionEvents.NONE);
    }

    ScannerRunner(ManagementServer server, ClusterStateScanner<State, Event> scanner,
            InvariantMonitor monitor, ScannerStats stats, boolean widenWindows, ActionEvents events) {
        this.events = events;
        this.server = server;
        this.scanner = scanner;
        this.monitor = monitor;
        this.stats = stats;
        this.widenWindows = widenWindows;
        scanner.setListener(this);
    }

    /** One pass, if this server is up; false when it is down. */
    boolean pass() {
        long runid = server.runid();
        try {
            GLOBAL_LOCK.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the simulation is being stopped (its watchdog)
            return false;
        }
        try {
            return server.step(runid, () -> {
                RecoveryResult<State> recovery = scanner.recoverOrphanedOperationStates();
                ReconcileResult<State> reconcile = scanner.reconcileAlertClusters(id -> true);
                stats.record(recovery, reconcile);
                events.pass(recovery.statements() + reconcile.statements(), recovery.recoveredIds().size(),
                        recovery.missedIds().size(), reconcile.moved().size(),
                        recovery.kind() == RecoveryResult.Kind.WAITED, recovery.jobLookupSkipped());
                return true;
            });
        } catch (ManagementServer.Crashed crashed) {
            return false;
        } catch (SQLException | StateStoreException e) {
            // A scanner pass that meets a database error ends; the next one starts afresh.
            stats.databaseErrors.incrementAndGet();
            events.passFailed();
            return true;
        } finally {
            GLOBAL_LOCK.unlock();
        }
    }

    /** Between reading a cluster and failing it, an operation may end and another begin. */
    @Override
    public void candidatesRead() {
        widen();
    }

    @Override
    public void jobsRead() {
        widen();
    }

    private void widen() {
        if (widenWindows) {
            try {
                Thread.sleep(SimulationConfig.WIDEN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void beforeRecovery(long clusterId) {
        events.recovering(clusterId);
        monitor.tracker(clusterId).lock.lock();
    }

    @Override
    public void afterRecovery(long clusterId, boolean hit) {
        ClusterTracker tracker = monitor.tracker(clusterId);
        events.recovered(clusterId, hit);
        try {
            if (hit) {
                monitor.scannerRecovered(tracker);
            }
        } finally {
            tracker.lock.unlock();
        }
    }
}
