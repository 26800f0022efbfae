// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;

/**
 * What {@link ClusterOperationGuard#transitToOperationState} did for a worker.
 *
 * @param kind        what happened
 * @param operation   the operation that asked
 * @param startedFrom the cluster's state the decision was made on (null when the cluster was not found)
 * @param update      ENTERED / LOST_RACE: the compare-and-set that was tried; else null
 * @param message     REFUSED / LOST_RACE: the message for the user; else null
 * @param hold        ENTERED / PROCEEDED: what the entry left the operation (fenced: the token it
 *                    wrote), which its completion expects; else null
 */
public record OperationEntry<S, E>(Kind kind, Operation operation, S startedFrom, StateUpdate<S, E> update,
        String message, Hold<S> hold) {

    /**
     * The outcomes of an entry attempt. Past tense on purpose: an outcome says what the guard did
     * (ENTERED, PROCEEDED), where {@link org.apache.cloudstack.kubernetes.state.EntryDecision.Kind}, the
     * core's decision, says what to do (TRANSITION, PROCEED); LOST_RACE has no decision of its own (a
     * missed write, or BUSY).
     */
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
        Arguments.required(kind, "kind");
        Arguments.required(operation, "operation");
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
