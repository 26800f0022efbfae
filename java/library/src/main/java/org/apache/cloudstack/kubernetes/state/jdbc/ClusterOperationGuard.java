// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.ScaleStep;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The state rules of CloudStack's CKS action workers ({@code KubernetesClusterActionWorker} and its
 * scale / add-nodes subclasses) in the DAO's mode: the native core decides every move, the
 * {@link KubernetesClusterStateDao} applies it. An operation enters its state before changing
 * anything (a lost race fails with "please retry" and moves nothing), a scale enters its scaling
 * state once, a completion ends only what the operation's entry left (compat: from the state it
 * moved the cluster to; fenced: by the token it wrote, releasing the cluster), and add-nodes enters
 * Importing before the binaries ISO is attached. Fenced, an entry takes the cluster for its owner,
 * so of two destroys, two Alert starts, or a start and a scale of a Created cluster one goes ahead.
 *
 * <p>Immutable and thread-safe: one guard serves every operation of a server (compat), or one bound
 * by {@link #withOwner} each (fenced needs the owner). It keeps nothing of an operation: what an
 * operation holds is its {@link OperationEntry} or {@link ScaleOperation}, which the worker keeps and
 * completes on every way out (by {@link Outcome#FAILED} when an exception ends it).
 */
public final class ClusterOperationGuard<S extends Enum<S>, E extends Enum<E>> {
    private static final Logger LOG = LogManager.getLogger(ClusterOperationGuard.class);
    private static final String NOT_FOUND = "it was not found (deleted meanwhile); nothing was changed";

    private final ClusterStateStore<S, E> dao;
    private final ClusterStateMachine<S, E> machine;
    private final Owner owner;

    /** A guard without owner: call {@link #withOwner} per operation (fenced mode). */
    public ClusterOperationGuard(ClusterStateStore<S, E> dao) {
        this(dao, null);
    }

    public ClusterOperationGuard(ClusterStateStore<S, E> dao, Owner owner) {
        this.dao = Arguments.required(dao, "dao");
        this.machine = dao.machine();
        this.owner = owner;
    }

    public ClusterStateStore<S, E> dao() {
        return dao;
    }

    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    /** The owner this guard writes, or null when unbound. */
    public Owner owner() {
        return owner;
    }

    /** This guard for one operation run by {@code owner} (server msid, runid, job id). */
    public ClusterOperationGuard<S, E> withOwner(Owner newOwner) {
        return new ClusterOperationGuard<>(dao, Arguments.required(newOwner, "owner"));
    }

    /** Enters {@code operation} on the cluster's row as read now. */
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation) {
        Arguments.required(operation, "operation");
        ClusterRow<S> row = dao.findRow(clusterId);
        return row == null ? notFound(clusterId, operation) : transitToOperationState(clusterId, operation, row);
    }

    /**
     * Enters {@code operation} on {@code current}, the state the worker loaded: a row moved since loses
     * the race. A decision that writes compares as it writes; one that writes nothing (proceed,
     * nothing to do, refuse) is confirmed against the row: compat reads the state once for it, fenced
     * has read the row's token before deciding. A row in another state is LOST_RACE.
     */
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation, S current) {
        Arguments.required(operation, "operation");
        Arguments.required(current, "current");
        if (dao.mode() == StateMode.COMPAT) {
            return enter(clusterId, operation, ClusterRow.of(current), null);
        }
        ClusterRow<S> read = dao.findRow(clusterId);
        return read == null ? notFound(clusterId, operation)
                : enter(clusterId, operation, new ClusterRow<>(new Token<>(current, read.version()), read.owner()),
                        read.state());
    }

    /** Enters {@code operation} on a row read with its token (the fenced callers' form). */
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation, ClusterRow<S> row) {
        Arguments.required(operation, "operation");
        Arguments.required(row, "row");
        return enter(clusterId, operation, row, row.state());
    }

    /**
     * The entry on {@code row}; {@code actual}: the cluster's state as read, or null when the row
     * was not read (compat, on the caller's state): a decision that writes nothing then reads it.
     */
    private OperationEntry<S, E> enter(long clusterId, Operation operation, ClusterRow<S> row, S actual) {
        EntryDecision<S, E> entry = machine.entry(operation, row, owner);
        S from = row.state();
        StateWrite<S, E> w = entry.write();
        if (w == null && entry.kind() != EntryDecision.Kind.BUSY) {
            S now = actual != null ? actual : dao.findState(clusterId);
            if (now == null) {
                return notFound(clusterId, operation);
            }
            if (now != from) {
                LOG.info("Kubernetes cluster {}: {} decided on {}, but the cluster is {}", clusterId, operation, from, now);
                return new OperationEntry<>(OperationEntry.Kind.LOST_RACE, operation, from, null,
                        retryMessage(operation, from), null);
            }
        }
        return switch (entry.kind()) {
            case TRANSITION, PROCEED -> {
                if (w != null && !dao.apply(clusterId, w)) {
                    LOG.info("Kubernetes cluster {}: {} lost the race from {}", clusterId, operation, row.token());
                    yield new OperationEntry<>(OperationEntry.Kind.LOST_RACE, operation, from, w.update(),
                            retryMessage(operation, from), null);
                }
                OperationEntry.Kind kind = entry.kind() == EntryDecision.Kind.TRANSITION ? OperationEntry.Kind.ENTERED
                        : OperationEntry.Kind.PROCEEDED;
                yield new OperationEntry<>(kind, operation, from, entry.update(), null, entry.hold());
            }
            case NOTHING_TO_DO -> new OperationEntry<>(OperationEntry.Kind.NOTHING_TO_DO, operation, from, null, null,
                    null);
            case BUSY -> new OperationEntry<>(OperationEntry.Kind.LOST_RACE, operation, from, null,
                    busyMessage(clusterId, operation, entry.busyOwner()), null);
            case REFUSE -> new OperationEntry<>(OperationEntry.Kind.REFUSED, operation, from, null, entry.refusal(),
                    null);
        };
    }

    /** Completes the operation of an entry; true when it changed the row (a miss: the cluster moved on). */
    public boolean complete(long clusterId, OperationEntry<S, E> entry, Outcome outcome) {
        Arguments.required(entry, "entry");
        Arguments.required(outcome, "outcome");
        if (entry.hold() == null) {
            return false;
        }
        StateWrite<S, E> write = machine.completion(entry.hold(), outcome);
        boolean hit = write != null && dao.apply(clusterId, write);
        if (write != null && !hit) {
            LOG.info("Kubernetes cluster {}: {} no longer at {}; completion left out", clusterId, entry.operation(),
                    entry.hold().token());
        }
        return hit;
    }

    /**
     * Ends a destroy that went ahead where CloudStack's table has no way to Destroyed (a cluster whose
     * create never started: Created has no DestroyRequested row) by removing the row, compared on what
     * the entry holds: an operation that moved the cluster since (a start) makes it miss, and the row
     * stays as it was. False also for an entry this does not end: another operation, one that moved the
     * cluster, or a destroy whose successful completion changes the state (complete it instead).
     */
    public boolean removeNeverStarted(long clusterId, OperationEntry<S, E> entry) {
        Arguments.required(entry, "entry");
        Hold<S> hold = entry.hold();
        if (entry.operation() != Operation.DESTROY || hold == null || hold.movedTo() != null) {
            return false;
        }
        StateWrite<S, E> end = machine.completion(hold, Outcome.SUCCEEDED);
        if (end != null && end.target().state() != hold.token().state()) {
            return false;
        }
        boolean removed = dao.removeAt(clusterId, hold.token(), end);
        if (!removed) {
            LOG.info("Kubernetes cluster {}: no longer at {}; not removed", clusterId, hold.token());
        }
        return removed;
    }

    /** Starts a scale or autoscale accepted with the cluster in {@code startedFrom} (fenced: reads its token now). */
    public ScaleOperation<S, E> beginScale(long clusterId, ScaleKind kind, S startedFrom) {
        Arguments.required(startedFrom, "startedFrom");
        ClusterRow<S> row = dao.rowAsLoaded(clusterId, startedFrom);
        // No row (fenced): the first step reads none and refuses.
        return machine.beginScale(kind, row == null ? new Token<>(startedFrom, 0) : row.token(), owner);
    }

    /**
     * One scaling step: the first that changes the cluster enters Scaling / ScalingStoppedCluster
     * (fenced, from Created: takes it); later ones neither transition nor read. From Created only the
     * settings change, after a re-read (TAKEN_SINCE if a start has taken the cluster since).
     */
    public ScaleEntry<S, E> enterScalingState(long clusterId, ScaleOperation<S, E> scale) {
        Arguments.required(scale, "scale");
        ClusterRow<S> current = null;
        if (scale.hold() == null) {
            current = dao.findRow(clusterId);
            if (current == null) {
                LOG.info("Kubernetes cluster {}: not found for a scale step", clusterId);
                return new ScaleEntry<>(ScaleEntry.Kind.REFUSED, null, NOT_FOUND);
            }
        }
        ScaleStep<S, E> step = scale.nextStep(current);
        StateWrite<S, E> w = step.write();
        return switch (step.kind()) {
            case SETTINGS_ONLY, ENTER -> {
                if (w != null) {
                    if (!dao.apply(clusterId, w)) {
                        yield new ScaleEntry<>(ScaleEntry.Kind.LOST_RACE, w.update(), retryMessage(
                                Operation.SCALE, current == null ? scale.started().state() : current.state()));
                    }
                    scale.markEntered();
                }
                yield step.kind() == ScaleStep.Kind.ENTER ? new ScaleEntry<>(ScaleEntry.Kind.ENTERED, w.update(), null)
                        : new ScaleEntry<>(ScaleEntry.Kind.SETTINGS_ONLY, null, null);
            }
            case ALREADY_ENTERED -> new ScaleEntry<>(ScaleEntry.Kind.ALREADY_ENTERED, null, null);
            case FAIL_TAKEN_SINCE -> new ScaleEntry<>(ScaleEntry.Kind.TAKEN_SINCE, null, step.message());
            case BUSY -> new ScaleEntry<>(ScaleEntry.Kind.LOST_RACE, null,
                    busyMessage(clusterId, Operation.SCALE, step.busyOwner()));
            case REFUSE -> new ScaleEntry<>(ScaleEntry.Kind.REFUSED, null, step.message());
        };
    }

    /** Completes a scale: only one that moved (fenced: holds) the cluster writes; true when that write hit. */
    public boolean completeScale(long clusterId, ScaleOperation<S, E> scale, Outcome outcome) {
        Arguments.required(scale, "scale");
        Arguments.required(outcome, "outcome");
        StateWrite<S, E> write = scale.completion(outcome);
        return write != null && dao.apply(clusterId, write);
    }

    /**
     * Add nodes: enters Importing, and only then runs {@code attachBinariesIso} (a refused add or a
     * lost race attaches nothing); a hook that throws fails the operation on its way out.
     */
    public OperationEntry<S, E> addNodes(long clusterId, Runnable attachBinariesIso) {
        Arguments.required(attachBinariesIso, "attachBinariesIso");
        OperationEntry<S, E> entry = transitToOperationState(clusterId, Operation.ADD_NODES);
        if (!entry.mayProceed()) {
            return entry;
        }
        boolean attached = false;
        try {
            attachBinariesIso.run();
            attached = true;
        } finally {
            if (!attached) {
                complete(clusterId, entry, Outcome.FAILED);
            }
        }
        return entry;
    }

    private static <S, E> OperationEntry<S, E> notFound(long clusterId, Operation operation) {
        LOG.info("Kubernetes cluster {}: not found for {}", clusterId, operation);
        return new OperationEntry<>(OperationEntry.Kind.REFUSED, operation, null, null, NOT_FOUND, null);
    }

    // What the user reads: the host names the cluster (name, uuid); row ids, msids and job ids go to the log.
    private static String retryMessage(Operation operation, Object state) {
        return String.format("another operation changed its state from %s before %s could start; nothing was"
                + " changed, please retry", state, operation);
    }

    private static String busyMessage(long clusterId, Operation operation, Owner busy) {
        LOG.info("Kubernetes cluster {}: {} refused, held by job {} on management server {} (run {})", clusterId,
                operation, busy.hasJob() ? busy.jobId() : "none", busy.msid(), busy.runid());
        return "another operation is in progress on it; nothing was changed, please retry";
    }
}
