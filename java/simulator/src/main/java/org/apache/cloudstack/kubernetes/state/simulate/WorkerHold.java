// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard;
import org.apache.cloudstack.kubernetes.state.jdbc.OperationEntry;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * What a simulated worker holds until it starts its completion, for its way out by a database error
 * (the series' workers keep their entry the same way). Only fenced entries are failed there: compat
 * models upstream's worker, which leaves the cluster to the status scanner.
 */
final class WorkerHold {
    private volatile OperationEntry<State, Event> entry;
    private volatile ScaleOperation<State, Event> scale;

    void entered(OperationEntry<State, Event> held) {
        entry = held;
    }

    void entered(ScaleOperation<State, Event> held) {
        scale = held;
    }

    /** The completion takes over: from here a failure leaves the cluster to the scanner. */
    void completing() {
        entry = null;
        scale = null;
    }

    /** Fails what is still held by its token; true when a write hit. Forgotten once answered (a retry may follow an error). */
    boolean fail(ClusterOperationGuard<State, Event> guard, long clusterId) {
        if (guard.machine().mode() != StateMode.FENCED) {
            return false;
        }
        boolean hit = false;
        OperationEntry<State, Event> heldEntry = entry;
        if (heldEntry != null) {
            hit = guard.complete(clusterId, heldEntry, Outcome.FAILED);
            entry = null;
        }
        ScaleOperation<State, Event> heldScale = scale;
        if (heldScale != null) {
            hit |= guard.completeScale(clusterId, heldScale, Outcome.FAILED);
            scale = null;
        }
        return hit;
    }
}
