package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.Objects;
import org.apache.cloudstack.kubernetes.state.Hold;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.StateUpdate;

/**
 * What {@link OperationGuard#transitToOperationState} did for a worker.
 *
 * @param kind        what happened
 * @param operation   the operation that asked
 * @param startedFrom the cluster's state the decision was made on (null when the cluster was not found)
 * @param update      ENTERED / LOST_RACE: the compare-and-set that was tried; else null
 * @param message     REFUSED / LOST_RACE: the message for the user; else null
 * @param hold        fenced mode, ENTERED / PROCEEDED: the token the entry wrote, which its
 *                    completion expects; null in compat mode
 */
public record OperationEntry<S, E>(Kind kind, Operation operation, S startedFrom, StateUpdate<S, E> update,
        String message, Hold<S> hold) {

    /** The outcomes of an entry attempt. */
    public enum Kind {
        /** The compare-and-set moved the cluster into the operation's state: go ahead. */
        ENTERED,
        /** No state change, by exemption (start from Alert/Error, stop from Created/Error, destroy from Destroying): go ahead. */
        PROCEEDED,
        /** Already done (start of a Running/Starting cluster, stop of a Stopped/Stopping one): success, no work. */
        NOTHING_TO_DO,
        /** The operation may not start from this state (message names operation and state). */
        REFUSED,
        /** Another operation moved the cluster first: fail with "please retry"; nothing was moved. */
        LOST_RACE
    }

    public OperationEntry {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(operation, "operation");
    }

    /** A compat-mode entry (no hold). */
    public OperationEntry(Kind kind, Operation operation, S startedFrom, StateUpdate<S, E> update, String message) {
        this(kind, operation, startedFrom, update, message, null);
    }

    /** True when the worker goes on with its work (ENTERED or PROCEEDED). */
    public boolean mayProceed() {
        return kind == Kind.ENTERED || kind == Kind.PROCEEDED;
    }

    /** The state this entry moved the cluster to (ENTERED), else null: what completion starts from. */
    public S movedTo() {
        return kind == Kind.ENTERED ? update.target() : null;
    }
}
