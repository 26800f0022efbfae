package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.Objects;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;

/**
 * The state rules of CloudStack's CKS action workers, in either mode: {@link ClusterOperationGuard}
 * (compat) or {@link FencedOperationGuard} (fenced). A worker binds its owner with
 * {@link #withOwner} once it knows its job, then enters, works and completes through the result.
 */
public interface OperationGuard<S extends Enum<S>, E extends Enum<E>> {

    ClusterStateMachine<S, E> machine();

    /**
     * This guard for one operation run by {@code owner} (server msid, runid, job id). Compat mode
     * ignores the owner and returns this guard; fenced mode needs it before any entry.
     */
    default OperationGuard<S, E> withOwner(Owner owner) {
        return this;
    }

    /** Enters {@code operation} on the cluster's state as read now. */
    OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation);

    /** Enters {@code operation} on {@code current}, the state the worker loaded with the cluster. */
    OperationEntry<S, E> transitToOperationState(long clusterId, Operation operation, S current);

    /** Completes the operation of an entry; true when the completion changed the row. */
    boolean complete(long clusterId, OperationEntry<S, E> entry, Outcome outcome);

    /** Starts a scale or autoscale accepted with the cluster in {@code startedFrom}. */
    ScaleOperation<S, E> beginScale(long clusterId, ScaleKind kind, S startedFrom);

    /** One scaling step: the first that changes the cluster enters (or, from Created, holds) it. */
    ScaleEntry<S, E> enterScalingState(ScaleOperation<S, E> scale, long clusterId);

    /** Completes a scale: only one that moved (fenced: held) the cluster writes. */
    boolean completeScale(ScaleOperation<S, E> scale, long clusterId, boolean succeeded);

    /**
     * The start of an add-nodes operation: enters Importing, and only then runs
     * {@code attachBinariesIso}, so a refused add or a lost race attaches nothing. Whenever the hook
     * does not return normally, the operation is failed in a finally-path (fenced: by its token,
     * releasing the cluster; compat: only if the cluster is still where this add moved it) and the
     * throwable propagates.
     */
    default OperationEntry<S, E> addNodes(long clusterId, Runnable attachBinariesIso) {
        Objects.requireNonNull(attachBinariesIso, "attachBinariesIso");
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

    /**
     * The finally-path of a worker that ends by an exception before its completion: fails, by its
     * token, whatever this operation still holds, so the cluster is not left held by a live owner.
     * True when a write hit. Compat mode holds nothing: false.
     */
    default boolean abandon(long clusterId) {
        return false;
    }
}
