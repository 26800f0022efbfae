package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Fence;
import org.apache.cloudstack.kubernetes.state.FencedEntry;
import org.apache.cloudstack.kubernetes.state.FencedScale;
import org.apache.cloudstack.kubernetes.state.FencedScaleStep;
import org.apache.cloudstack.kubernetes.state.FencedStateMachine;
import org.apache.cloudstack.kubernetes.state.FencedWrite;
import org.apache.cloudstack.kubernetes.state.Hold;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.StateUpdate;
import org.apache.cloudstack.kubernetes.state.Token;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The workers' state rules in fenced mode, drop-in for {@link ClusterOperationGuard}:
 * <ul>
 *   <li>an entry (TRANSITION and PROCEED alike) takes the cluster by compare-and-set on
 *       (state, state_version) and stores the owner; a cluster another operation holds is
 *       LOST_RACE ("please retry"), so of two destroys, two Alert starts, or a start and a scale of
 *       a Created cluster exactly one goes ahead;</li>
 *   <li>the entry carries its {@link org.apache.cloudstack.kubernetes.state.Hold}: the completion
 *       expects exactly that token and releases the owner, so a zombie completion (after the
 *       scanner failed the operation) misses;</li>
 *   <li>a scale takes the cluster at its first step with the token read at acceptance
 *       ({@link #beginScale}), from Created without a state change.</li>
 * </ul>
 * Thread-safe. Bind the owner per operation with {@link #withOwner} (one bound guard per
 * operation: it remembers what the operation holds, for {@link #abandon}); an unbound guard refuses
 * to enter (IllegalStateException).
 */
public final class FencedOperationGuard<S extends Enum<S>, E extends Enum<E>> implements OperationGuard<S, E> {
    private static final Logger LOG = LogManager.getLogger(FencedOperationGuard.class);

    private final FencedClusterStateDao<S, E> dao;
    private final FencedStateMachine<S, E> fenced;
    private final ClusterStateMachine<S, E> machine;
    private final Owner owner;
    /** The fenced twin of each scale this guard began, until it completes. */
    private final Map<ScaleOperation<S, E>, FencedScale<S, E>> scales = new IdentityHashMap<>();
    /** The hold of the entry this operation has not completed yet, for {@link #abandon}. */
    private final AtomicReference<Hold<S>> open = new AtomicReference<>();

    /** An unbound guard: call {@link #withOwner} per operation. */
    public FencedOperationGuard(FencedClusterStateDao<S, E> dao) {
        this(dao, null);
    }

    public FencedOperationGuard(FencedClusterStateDao<S, E> dao, Owner owner) {
        this.dao = Objects.requireNonNull(dao, "dao");
        this.fenced = dao.fenced();
        this.machine = dao.machine();
        this.owner = owner;
    }

    public FencedClusterStateDao<S, E> dao() {
        return dao;
    }

    /** The owner this guard writes, or null when unbound. */
    public Owner owner() {
        return owner;
    }

    @Override
    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    @Override
    public FencedOperationGuard<S, E> withOwner(Owner newOwner) {
        return new FencedOperationGuard<>(dao, Objects.requireNonNull(newOwner, "owner"));
    }

    @Override
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation) {
        Objects.requireNonNull(operation, "operation");
        Fence<S> row = dao.findFence(clusterId);
        return row == null ? notFound(clusterId, operation) : transitToOperationState(clusterId, operation, row);
    }

    /**
     * Compat callers pass the state they loaded: if the row has moved since, the operation lost the
     * race (or, decided on {@code current}, had nothing to do or was refused, as in compat mode).
     */
    @Override
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation, S current) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(current, "current");
        Fence<S> row = dao.findFence(clusterId);
        if (row == null) {
            return notFound(clusterId, operation);
        }
        if (row.state() == current) {
            return transitToOperationState(clusterId, operation, row);
        }
        EntryDecision<S, E> decision = machine.decideEntry(operation, current);
        switch (decision.kind()) {
            case NOTHING_TO_DO:
                return new OperationEntry<>(OperationEntry.Kind.NOTHING_TO_DO, operation, current, null, null);
            case REFUSE:
                return new OperationEntry<>(OperationEntry.Kind.REFUSED, operation, current, null, decision.refusal());
            default:
                return new OperationEntry<>(OperationEntry.Kind.LOST_RACE, operation, current, decision.update(),
                        retryMessage(clusterId, operation, current));
        }
    }

    /** Enters {@code operation} on a row read with its token (the fenced callers' form). */
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation, Fence<S> row) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(row, "row");
        FencedEntry<S, E> entry = fenced.entry(operation, row, bound());
        S from = row.state();
        switch (entry.kind()) {
            case TAKE: {
                FencedWrite<S, E> w = entry.write();
                StateUpdate<S, E> update = w.event() == null ? null
                        : new StateUpdate<>(w.expected().state(), w.event(), w.target().state());
                if (!dao.apply(clusterId, w)) {
                    LOG.info("Kubernetes cluster {}: {} lost the race from {}", clusterId, operation, row.token());
                    return new OperationEntry<>(OperationEntry.Kind.LOST_RACE, operation, from, update,
                            retryMessage(clusterId, operation, from));
                }
                OperationEntry.Kind kind = update != null ? OperationEntry.Kind.ENTERED : OperationEntry.Kind.PROCEEDED;
                open.set(entry.hold());
                return new OperationEntry<>(kind, operation, from, update, null, entry.hold());
            }
            case NOTHING_TO_DO:
                return new OperationEntry<>(OperationEntry.Kind.NOTHING_TO_DO, operation, from, null, null);
            case BUSY:
                return new OperationEntry<>(OperationEntry.Kind.LOST_RACE, operation, from, null,
                        String.format("Kubernetes cluster %d is busy with another operation (job %s on management"
                                + " server %d); nothing was changed, please retry", clusterId,
                                entry.busyOwner().hasJob() ? entry.busyOwner().jobId() : "none",
                                entry.busyOwner().msid()));
            case REFUSE:
            default:
                return new OperationEntry<>(OperationEntry.Kind.REFUSED, operation, from, null, entry.refusal());
        }
    }

    /**
     * Completes by the entry's token and releases the cluster; true when that write hit. An entry
     * without a hold (not ENTERED / PROCEEDED) writes nothing; a miss means the cluster was taken
     * from this operation (the scanner failed it, or an older server wrote it): leave it.
     */
    @Override
    public boolean complete(long clusterId, OperationEntry<S, E> entry, Outcome outcome) {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(outcome, "outcome");
        if (entry.hold() == null) {
            return false;
        }
        open.compareAndSet(entry.hold(), null);
        boolean hit = dao.apply(clusterId, fenced.completion(entry.hold(), outcome));
        if (!hit) {
            LOG.info("Kubernetes cluster {}: {} no longer holds it ({}); completion left out", clusterId,
                    entry.operation(), entry.hold().token());
        }
        return hit;
    }

    /** Reads the token now: every take of this scale expects it. */
    @Override
    public ScaleOperation<S, E> beginScale(long clusterId, ScaleKind kind, S startedFrom) {
        ScaleOperation<S, E> scale = machine.beginScale(kind, startedFrom);
        Fence<S> row = dao.findFence(clusterId);
        FencedScale<S, E> twin = fenced.beginScale(kind, startedToken(startedFrom, row), bound());
        synchronized (scales) {
            scales.put(scale, twin);
        }
        return scale;
    }

    @Override
    public ScaleEntry<S, E> enterScalingState(ScaleOperation<S, E> scale, long clusterId) {
        Objects.requireNonNull(scale, "scale");
        FencedScale<S, E> twin;
        synchronized (scales) {
            twin = scales.get(scale);
        }
        Fence<S> current = null;
        if (twin == null || twin.hold() == null) {
            current = dao.findFence(clusterId);
            if (current == null) {
                return new ScaleEntry<>(ScaleEntry.Kind.REFUSED, null,
                        String.format("Kubernetes cluster %d not found", clusterId));
            }
        }
        if (twin == null) { // begun with machine().beginScale: its token is the one read now
            twin = fenced.beginScale(scale.kind(), startedToken(scale.startedFrom(), current), bound());
            synchronized (scales) {
                scales.put(scale, twin);
            }
        }
        FencedScaleStep<S, E> step = twin.nextStep(current);
        switch (step.kind()) {
            case ALREADY_HELD:
                return new ScaleEntry<>(twin.movedCluster() ? ScaleEntry.Kind.ALREADY_ENTERED
                        : ScaleEntry.Kind.SETTINGS_ONLY, null, null);
            case TAKE: {
                FencedWrite<S, E> w = step.write();
                StateUpdate<S, E> update = w.event() == null ? null
                        : new StateUpdate<>(w.expected().state(), w.event(), w.target().state());
                if (!dao.apply(clusterId, w)) {
                    return new ScaleEntry<>(ScaleEntry.Kind.LOST_RACE, update,
                            retryMessage(clusterId, Operation.SCALE, current.state()));
                }
                twin.markHeld(w);
                if (update == null) {
                    return new ScaleEntry<>(ScaleEntry.Kind.SETTINGS_ONLY, null, null);
                }
                // Keep the compat handle in step: it moved the cluster.
                scale.nextStep(update.expected());
                scale.markEntered();
                return new ScaleEntry<>(ScaleEntry.Kind.ENTERED, update, null);
            }
            case FAIL_TAKEN_SINCE:
                return new ScaleEntry<>(ScaleEntry.Kind.TAKEN_SINCE, null, step.message());
            case BUSY:
                return new ScaleEntry<>(ScaleEntry.Kind.LOST_RACE, null, retryMessage(clusterId, Operation.SCALE,
                        current.state()));
            case REFUSE:
            default:
                return new ScaleEntry<>(ScaleEntry.Kind.REFUSED, null, step.message());
        }
    }

    /** Completes (or releases) by the token of the scale's take; forgets the scale in any case. */
    @Override
    public boolean completeScale(ScaleOperation<S, E> scale, long clusterId, boolean succeeded) {
        Objects.requireNonNull(scale, "scale");
        FencedScale<S, E> twin;
        synchronized (scales) {
            twin = scales.remove(scale);
        }
        FencedWrite<S, E> write = twin == null ? null : twin.completion(succeeded);
        return write != null && dao.apply(clusterId, write);
    }

    /**
     * Fails, by their tokens, the entry and the scales this operation took and has not completed
     * (FAILED: the cluster goes to Alert from an operation's state, or is released). A database
     * error is thrown as {@link StateStoreException}; what could not be written stays held until
     * this server restarts (then the scanner frees it).
     */
    @Override
    public boolean abandon(long clusterId) {
        // Each hold is forgotten only once its write was answered (hit or miss): a caller may
        // retry after a database error.
        boolean hit = false;
        Hold<S> hold = open.get();
        if (hold != null) {
            hit = dao.apply(clusterId, fenced.completion(hold, Outcome.FAILED));
            open.compareAndSet(hold, null);
        }
        List<Map.Entry<ScaleOperation<S, E>, FencedScale<S, E>>> twins;
        synchronized (scales) {
            twins = new ArrayList<>(scales.entrySet());
        }
        for (Map.Entry<ScaleOperation<S, E>, FencedScale<S, E>> twin : twins) {
            FencedWrite<S, E> write = twin.getValue().completion(false);
            if (write != null) {
                hit |= dao.apply(clusterId, write);
            }
            synchronized (scales) {
                scales.remove(twin.getKey());
            }
        }
        return hit;
    }

    private Owner bound() {
        if (owner == null) {
            throw new IllegalStateException("fenced guard without an owner: call withOwner(msid, runid, job) first");
        }
        return owner;
    }

    /** The token a scale accepted in {@code startedFrom} expects: a row in another state matches no token. */
    private static <S> Token<S> startedToken(S startedFrom, Fence<S> row) {
        return new Token<>(startedFrom, row == null ? 0 : row.version());
    }

    private static <S, E> OperationEntry<S, E> notFound(long clusterId, Operation operation) {
        return new OperationEntry<>(OperationEntry.Kind.REFUSED, operation, null, null,
                String.format("Kubernetes cluster %d not found", clusterId));
    }

    private static String retryMessage(long clusterId, Operation operation, Object state) {
        return String.format("Kubernetes cluster %d: another operation changed it (from %s) before %s could"
                + " start; nothing was changed, please retry", clusterId, state, operation);
    }
}
