// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard;
import org.apache.cloudstack.kubernetes.state.jdbc.OperationEntry;
import org.apache.cloudstack.kubernetes.state.jdbc.ScaleEntry;
import org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException;
import org.apache.cloudstack.kubernetes.state.simulate.OperationOutcomes.EntryOutcome;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/** Runs one scripted operation as a CloudStack action worker does, on one management server. */
final class OperationRunner {
    /** Marking a job failed after a database error is retried for up to 30 s. */
    private static final int DATABASE_RETRIES = 120;
    private static final long DATABASE_RETRY_MILLIS = 250;
    private final SimulationDatabase db;
    private final List<SimCluster> clusters;
    private final InvariantMonitor monitor;
    private final OperationOutcomes outcomes;
    private final LatencyRecorder latency;
    private final boolean widenWindows;
    private final ActionEvents events;

    OperationRunner(SimulationDatabase db, List<SimCluster> clusters, InvariantMonitor monitor,
            OperationOutcomes outcomes, LatencyRecorder latency, boolean widenWindows) {
        this(db, clusters, monitor, outcomes, latency, widenWindows, ActionEvents.NONE);
    }

    OperationRunner(SimulationDatabase db, List<SimCluster> clusters, InvariantMonitor monitor,
            OperationOutcomes outcomes, LatencyRecorder latency, boolean widenWindows, ActionEvents events) {
        this.events = events;
        this.db = db;
        this.clusters = clusters;
        this.monitor = monitor;
        this.outcomes = outcomes;
        this.latency = latency;
        this.widenWindows = widenWindows;
    }

    void run(ScriptedOperation op, ManagementServer server, ClusterOperationGuard<State, Event> serverGuard) {
        long runid = server.runid();
        SimCluster cluster = clusters.get(op.cluster());
        long[] job = {-1};
        AtomicReference<ClusterOperationGuard<State, Event>> bound = new AtomicReference<>(serverGuard);
        WorkerHold held = new WorkerHold();
        try {
            long jobId = server.step(runid, () -> db.insertJob(server.msid, op, cluster));
            job[0] = jobId;
            // Fenced mode stores this owner with the cluster; compat mode ignores it.
            ClusterOperationGuard<State, Event> guard = serverGuard.withOwner(new Owner(server.msid, runid, jobId));
            bound.set(guard);
            String read = server.step(runid, () -> db.state(cluster.id()));
            State current = guard.machine().state(read);
            boolean succeeded = op.kind().scaleKind != null
                    ? runScale(op, server, runid, guard, cluster, current, held)
                    : runOperation(op, server, runid, guard, cluster, current, held);
            server.step(runid, () -> {
                db.servers().jobFinished(jobId, server.msid, succeeded);
                return null;
            });
        } catch (ManagementServer.Crashed crashed) {
            outcomes.crashedMidOperation.incrementAndGet();
        } catch (SQLException | StateStoreException e) {
            // A database error ends this worker as an exception ends a CloudStack job: counted, the
            // job failed once the database answers again, the cluster left to the status scanner.
            outcomes.databaseErrors.incrementAndGet();
            abandon(op, server, runid, cluster, job[0], bound.get(), held);
        }
    }

    /** The worker is gone: out of the monitor, its job failed (retried while the database is away). */
    private void abandon(ScriptedOperation op, ManagementServer server, long runid, SimCluster cluster, long jobId,
            ClusterOperationGuard<State, Event> guard, WorkerHold held) {
        ClusterTracker tracker = monitor.tracker(cluster.id());
        tracker.lock.lock();
        try {
            tracker.active.removeIf(a -> a.script == op);
        } finally {
            tracker.lock.unlock();
        }
        if (jobId < 0) {
            events.abandoned(op, cluster.id(), false);
            return;
        }
        for (int attempt = 0; attempt < DATABASE_RETRIES; attempt++) {
            try {
                server.step(runid, () -> {
                    held.fail(guard, cluster.id()); // the worker's way out: fail what it holds, by its token
                    db.servers().jobFinished(jobId, server.msid, false);
                    return null;
                });
                events.abandoned(op, cluster.id(), false);
                return;
            } catch (ManagementServer.Crashed crashed) {
                return; // the restart fails the jobs of the old run
            } catch (SQLException | StateStoreException e) {
                try {
                    Thread.sleep(DATABASE_RETRY_MILLIS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        outcomes.jobsLeftInProgress.incrementAndGet();
        events.abandoned(op, cluster.id(), true);
    }

    private boolean runOperation(ScriptedOperation op, ManagementServer server, long runid,
            ClusterOperationGuard<State, Event> guard, SimCluster cluster, State current, WorkerHold held)
            throws SQLException {
        ClusterTracker tracker = monitor.tracker(cluster.id());
        ActiveOperation[] active = new ActiveOperation[1];
        events.entering(op, cluster.id());
        OperationEntry<State, Event> entry = server.step(runid, tracker.lock, () -> {
            long start = System.nanoTime();
            OperationEntry<State, Event> e = guard.transitToOperationState(cluster.id(), op.kind().operation, current);
            if (e.update() != null) {
                latency.add(System.nanoTime() - start);
                events.latency(System.nanoTime() - start);
            }
            if (e.mayProceed()) {
                held.entered(e);
                active[0] = new ActiveOperation(op, server.index, runid, e.kind() == OperationEntry.Kind.ENTERED,
                        e.movedTo() == null ? null : e.movedTo().name());
                monitor.entered(tracker, active[0]);
            }
            return e;
        });
        outcomes.count(EntryOutcome.valueOf(entry.kind().name()));
        events.entered(op, cluster.id(), EntryOutcome.valueOf(entry.kind().name()),
                entry.movedTo() == null ? null : entry.movedTo().name());
        if (!entry.mayProceed()) {
            return entry.kind() == OperationEntry.Kind.NOTHING_TO_DO;
        }
        if (entry.kind() == OperationEntry.Kind.PROCEEDED && widenWindows) {
            server.work(runid, SimulationConfig.WIDEN_MILLIS);
        }
        server.work(runid, op.workMillis());
        boolean ok = !op.fails();
        applyVmEffects(op, server, runid, cluster, ok);
        held.completing();
        return finish(op, server, runid, tracker, active[0], ok, entry.movedTo() != null,
                () -> guard.complete(cluster.id(), entry, ok ? Outcome.SUCCEEDED : Outcome.FAILED));
    }

    /**
     * The completion compare-and-set under the cluster's tracker lock, so the monitor sees it in
     * the database's order; {@code moved} tells whether it was a real compare-and-set.
     */
    private boolean finish(ScriptedOperation op, ManagementServer server, long runid, ClusterTracker tracker,
            ActiveOperation active, boolean ok, boolean moved, ManagementServer.Step<Boolean> completion)
            throws SQLException {
        events.completing(op, tracker.clusterId);
        server.step(runid, tracker.lock, () -> {
            long start = System.nanoTime();
            boolean hit;
            try {
                hit = completion.run();
            } catch (SQLException | StateStoreException e) {
                // The worker ends here; under the lock, so that no operation that enters after a
                // completion that did commit (and only failed to answer) is counted beside it.
                tracker.active.remove(active);
                throw e;
            }
            events.completed(op, tracker.clusterId, moved, hit, !ok);
            if (moved) {
                latency.add(System.nanoTime() - start);
                events.latency(System.nanoTime() - start);
                if (!hit) {
                    outcomes.completionMissed.incrementAndGet();
                }
            }
            monitor.exited(tracker, active, hit);
            return null;
        });
        if (!ok) {
            outcomes.workFailed.incrementAndGet();
        }
        return ok;
    }

    private boolean runScale(ScriptedOperation op, ManagementServer server, long runid,
            ClusterOperationGuard<State, Event> guard, SimCluster cluster, State current, WorkerHold held)
            throws SQLException {
        ScaleOperation<State, Event> scale = guard.beginScale(cluster.id(), op.kind().scaleKind, current);
        ClusterTracker tracker = monitor.tracker(cluster.id());
        // Some failing scales fail their validation before the first scaling step: they must
        // never touch a state that another scale may hold.
        if (op.fails() && op.index() % 3 == 0) {
            outcomes.count(EntryOutcome.REFUSED);
            events.entered(op, cluster.id(), EntryOutcome.REFUSED, null);
            server.step(runid, () -> guard.completeScale(cluster.id(), scale, Outcome.FAILED));
            return false;
        }
        ActiveOperation[] active = new ActiveOperation[1];
        events.entering(op, cluster.id());
        ScaleEntry<State, Event> first = server.step(runid, tracker.lock, () -> {
            long start = System.nanoTime();
            ScaleEntry<State, Event> e = guard.enterScalingState(cluster.id(), scale);
            if (e.update() != null) {
                latency.add(System.nanoTime() - start);
                events.latency(System.nanoTime() - start);
            }
            if (e.mayProceed()) {
                held.entered(scale);
                boolean entered = e.kind() == ScaleEntry.Kind.ENTERED;
                active[0] = new ActiveOperation(op, server.index, runid, entered,
                        entered ? e.update().target().name() : null);
                monitor.entered(tracker, active[0]);
            }
            return e;
        });
        outcomes.count(scaleOutcome(first.kind()));
        events.entered(op, cluster.id(), scaleOutcome(first.kind()),
                first.kind() == ScaleEntry.Kind.ENTERED ? first.update().target().name() : null);
        if (!first.mayProceed()) {
            return false;
        }
        server.work(runid, op.workMillis() / 2);
        // Later scaling steps of the same operation transition nothing.
        server.step(runid, () -> guard.enterScalingState(cluster.id(), scale));
        server.work(runid, op.workMillis() - op.workMillis() / 2);
        boolean ok = !op.fails();
        held.completing();
        return finish(op, server, runid, tracker, active[0], ok, scale.movedCluster(),
                () -> guard.completeScale(cluster.id(), scale, ok ? Outcome.SUCCEEDED : Outcome.FAILED));
    }

    private static EntryOutcome scaleOutcome(ScaleEntry.Kind kind) {
        return switch (kind) {
            case ENTERED, ALREADY_ENTERED -> EntryOutcome.ENTERED;
            case SETTINGS_ONLY -> EntryOutcome.PROCEEDED;
            case LOST_RACE -> EntryOutcome.LOST_RACE;
            default -> EntryOutcome.REFUSED;
        };
    }

    /** The hypervisor's side: a start runs the VMs, a stop stops them; failures leave them. */
    private void applyVmEffects(ScriptedOperation op, ManagementServer server, long runid, SimCluster cluster,
            boolean ok) throws SQLException {
        String vmState = !ok ? null
                : op.kind() == SimOperation.START ? "Running"
                : op.kind() == SimOperation.STOP ? "Stopped"
                : op.kind() == SimOperation.DESTROY ? "Expunging" : null;
        if (vmState != null) {
            server.step(runid, () -> {
                db.setVmStates(cluster.id(), vmState);
                return null;
            });
        }
    }
}
