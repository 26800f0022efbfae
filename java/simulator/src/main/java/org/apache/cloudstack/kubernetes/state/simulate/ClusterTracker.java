// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The operations inside one cluster. Each compare-and-set on the cluster runs under this lock
 * together with its bookkeeping, so the monitor sees the database's order of state changes.
 */
final class ClusterTracker {
    final long clusterId;
    final ReentrantLock lock = new ReentrantLock();
    final List<ActiveOperation> active = new ArrayList<>();

    ClusterTracker(long clusterId) {
        this.clusterId = clusterId;
    }
}
