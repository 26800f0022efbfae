// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;

/**
 * Alert reconciliation or fault detection: apply the steps in order, each by compare-and-set,
 * and stop at the first that misses. No steps = leave the cluster alone.
 */
public record ReconcilePlan<S, E>(List<StateWrite<S, E>> steps) {
    public ReconcilePlan {
        steps = List.copyOf(steps);
    }

    /** True when there is nothing to do. */
    public boolean isEmpty() {
        return steps.isEmpty();
    }
}
