package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.Objects;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Completion;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.ScaleStep;
import org.apache.cloudstack.kubernetes.state.StateUpdate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The state rules of CloudStack's CKS action workers ({@code KubernetesClusterActionWorker} and
 * its scale / add-nodes subclasses), on the database: every move is a compare-and-set through
 * {@link KubernetesClusterStateDao}, decided by the native state machine.
 *
 * <ul>
 *   <li>{@link #transitToOperationState}: enter the operation's state before changing anything;
 *       on a lost race, fail with "please retry" and move nothing.</li>
 *   <li>{@link #enterScalingState}: once per scale operation, at its first scaling step.</li>
 *   <li>{@link #failOperationIfStillIn} / {@link #succeedOperationIfStillIn}: complete from the
 *       state the operation moved the cluster to, only if it is still there.</li>
 *   <li>{@link #addNodes}: Importing is entered before the binaries ISO is attached.</li>
 * </ul>
 *
 * Thread-safe (a {@link ScaleOperation} itself is not: one per worker).
 */
public final class ClusterOperationGuard<S extends Enum<S>, E extends Enum<E>> implements OperationGuard<S, E> {
    private static final Logger LOG = LogManager.getLogger(ClusterOperationGuard.class);

    private final KubernetesClusterStateDao<S, E> dao;
    private final ClusterStateMachine<S, E> machine;

    public ClusterOperationGuard(KubernetesClusterStateDao<S, E> dao) {
        this.dao = Objects.requireNonNull(dao, "dao");
        this.machine = dao.machine();
    }

    public KubernetesClusterStateDao<S, E> dao() {
        return dao;
    }

    @Override
    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    /** {@link ClusterStateMachine#beginScale}: compat mode reads nothing at acceptance. */
    @Override
    public ScaleOperation<S, E> beginScale(long clusterId, ScaleKind kind, S startedFrom) {
        return machine.beginScale(kind, startedFrom);
    }

    /** {@link #transitToOperationState(long, Operation, Enum)} on the state read now from the database. */
    @Override
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation) {
        Objects.requireNonNull(operation, "operation");
        S current = dao.findState(clusterId);
        if (current == null) {
            return new OperationEntry<>(OperationEntry.Kind.REFUSED, operation, null, null,
                    String.format("Kubernetes cluster %d not found", clusterId));
        }
        return transitToOperationState(clusterId, operation, current);
    }

    /**
     * Decides whether the operation may start from {@code current} (the state the worker loaded
     * with the cluster) and, for a transition, moves the cluster by compare-and-set from exactly
     * that state. A miss means another operation got there first: LOST_RACE with a "please retry"
     * message; nothing is moved and nothing is undone.
     */
    @Override
    public OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation, S current) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(current, "current");
        EntryDecision<S, E> decision = machine.decideEntry(operation, current);
        switch (decision.kind()) {
            case TRANSITION:
                StateUpdate<S, E> update = decision.update();
                if (dao.apply(clusterId, update)) {
                    return new OperationEntry<>(OperationEntry.Kind.ENTERED, operation, current, update, null);
                }
                LOG.info("Kubernetes cluster {}: {} lost the race from {}", clusterId, operation, current);
                return new OperationEntry<>(OperationEntry.Kind.LOST_RACE, operation, current, update,
                        retryMessage(clusterId, operation, current));
            case PROCEED:
                return new OperationEntry<>(OperationEntry.Kind.PROCEEDED, operation, current, null, null);
            case NOTHING_TO_DO:
                return new OperationEntry<>(OperationEntry.Kind.NOTHING_TO_DO, operation, current, null, null);
            case REFUSE:
            default:
                return new OperationEntry<>(OperationEntry.Kind.REFUSED, operation, current, null,
                        decision.refusal());
        }
    }

    /**
     * One scaling step of a scale or autoscale operation ({@code scale} from
     * {@link ClusterStateMachine#beginScale}). The first step that changes the cluster enters
     * Scaling / ScalingStoppedCluster by compare-and-set and marks the operation entered; later
     * steps transition nothing (and read nothing). Started from Created: only settings change,
     * after re-reading the state (TAKEN_SINCE if a start has taken the cluster since; Created has no
     * scaling transition, so a narrow window between that read and the settings write remains).
     */
    @Override
    public ScaleEntry<S, E> enterScalingState(ScaleOperation<S, E> scale, long clusterId) {
        Objects.requireNonNull(scale, "scale");
        S current;
        if (scale.movedCluster()) {
            current = scale.enteredState();
        } else {
            current = dao.findState(clusterId);
            if (current == null) {
                return new ScaleEntry<>(ScaleEntry.Kind.REFUSED, null,
                        String.format("Kubernetes cluster %d not found", clusterId));
            }
        }
        ScaleStep<S, E> step = scale.nextStep(current);
        switch (step.kind()) {
            case SETTINGS_ONLY:
                return new ScaleEntry<>(ScaleEntry.Kind.SETTINGS_ONLY, null, null);
            case ALREADY_ENTERED:
                return new ScaleEntry<>(ScaleEntry.Kind.ALREADY_ENTERED, null, null);
            case ENTER:
                if (dao.apply(clusterId, step.update())) {
                    scale.markEntered();
                    return new ScaleEntry<>(ScaleEntry.Kind.ENTERED, step.update(), null);
                }
                return new ScaleEntry<>(ScaleEntry.Kind.LOST_RACE, step.update(),
                        retryMessage(clusterId, Operation.SCALE, current));
            case FAIL_TAKEN_SINCE:
                return new ScaleEntry<>(ScaleEntry.Kind.TAKEN_SINCE, null, step.message());
            case REFUSE:
            default:
                return new ScaleEntry<>(ScaleEntry.Kind.REFUSED, null, step.message());
        }
    }

    /** Completes a scale operation: only one that moved the cluster changes the state. */
    @Override
    public boolean completeScale(ScaleOperation<S, E> scale, long clusterId, boolean succeeded) {
        return applyCompletion(clusterId, scale.completion(succeeded));
    }

    /** Fires OperationFailed by compare-and-set from {@code state}; leaves a cluster that has moved on. */
    public boolean failOperationIfStillIn(long clusterId, S state) {
        return complete(clusterId, state, Outcome.FAILED);
    }

    /** Fires OperationSucceeded by compare-and-set from {@code state}; leaves a cluster that has moved on. */
    public boolean succeedOperationIfStillIn(long clusterId, S state) {
        return complete(clusterId, state, Outcome.SUCCEEDED);
    }

    /**
     * Completes an operation that moved the cluster to {@code movedTo} (null: it proceeded without
     * a state change, so the state is left alone). True when the state changed.
     */
    public boolean complete(long clusterId, S movedTo, Outcome outcome) {
        return applyCompletion(clusterId, machine.completion(movedTo, outcome));
    }

    /** Completes the operation of an entry ({@link OperationEntry#movedTo()}). */
    @Override
    public boolean complete(long clusterId, OperationEntry<S, E> entry, Outcome outcome) {
        return complete(clusterId, entry.movedTo(), outcome);
    }

    private boolean applyCompletion(long clusterId, Completion<S, E> completion) {
        if (completion == null || completion.leaveIt()) {
            return false;
        }
        return dao.apply(clusterId, completion.update());
    }

    private static String retryMessage(long clusterId, Operation operation, Object state) {
        return String.format("Kubernetes cluster %d: another operation changed its state from %s before %s could"
                + " start; nothing was changed, please retry", clusterId, state, operation);
    }
}
