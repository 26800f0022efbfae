// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;

/**
 * What {@link ClusterOperationGuard#enterScalingState} did for one scaling step.
 *
 * @param kind    what happened
 * @param update  ENTERED / LOST_RACE: the compare-and-set that was tried; else null
 * @param message TAKEN_SINCE / REFUSED / LOST_RACE: the message for the user; else null
 */
public record ScaleEntry<S, E>(Kind kind, StateUpdate<S, E> update, String message) {

    /**
     * The outcomes of one scaling step. Past tense on purpose: an outcome says what the guard did
     * (ENTERED, TAKEN_SINCE), where {@link org.apache.cloudstack.kubernetes.state.ScaleStep.Kind}, the
     * core's decision, says what to do (ENTER, FAIL_TAKEN_SINCE); LOST_RACE has no decision of its own (a
     * missed write, or BUSY).
     */
    public enum Kind {
        /** Started from Created: change the stored settings only, no state change (re-read check passed). */
        SETTINGS_ONLY,
        /** This step moved the cluster into Scaling / ScalingStoppedCluster (first step). */
        ENTERED,
        /** An earlier step of this operation already moved the cluster: nothing to transition. */
        ALREADY_ENTERED,
        /** Started from Created, but a start has taken the cluster since: fail. */
        TAKEN_SINCE,
        /** This kind of scale may not start from the state it started from. */
        REFUSED,
        /** Another operation moved the cluster first: fail with "please retry"; nothing was moved. */
        LOST_RACE
    }

    public ScaleEntry {
        Arguments.required(kind, "kind");
    }

    /** True when the scaling step goes ahead (SETTINGS_ONLY, ENTERED, ALREADY_ENTERED). */
    public boolean mayProceed() {
        return kind == Kind.SETTINGS_ONLY || kind == Kind.ENTERED || kind == Kind.ALREADY_ENTERED;
    }
}
