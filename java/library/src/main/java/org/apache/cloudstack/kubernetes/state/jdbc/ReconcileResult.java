// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.List;
import java.util.Map;

/**
 * What one Alert-reconciliation / fault-detection pass of {@link ClusterStateScanner} did.
 *
 * @param listed     clusters listed (Alert and Running, CloudManaged, not removed)
 * @param moved      cluster id -> the state this pass left it in, for every cluster it moved
 *                   (all steps applied, or the state reached before a step missed)
 * @param missedIds  clusters where a step missed (the cluster moved since it was listed): left there
 * @param steps      compare-and-set steps tried
 * @param statements SQL statements this pass executed
 */
public record ReconcileResult<S>(int listed, Map<Long, S> moved, List<Long> missedIds, int steps, int statements) {
    public ReconcileResult {
        moved = Map.copyOf(moved);
        missedIds = List.copyOf(missedIds);
    }
}
