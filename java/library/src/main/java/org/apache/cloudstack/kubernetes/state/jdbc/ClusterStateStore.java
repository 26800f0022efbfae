// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;

/**
 * Where a {@link ClusterOperationGuard} reads cluster rows and applies the writes the core decided:
 * CloudStack's database ({@link KubernetesClusterStateDao}), or memory ({@link InMemoryClusterStates},
 * for tests that have no database). Both apply the same compare-and-set: {@link CompareAndSetRule}.
 */
public interface ClusterStateStore<S extends Enum<S>, E extends Enum<E>> {

    ClusterStateMachine<S, E> machine();

    default StateMode mode() {
        return machine().mode();
    }

    /** The row of a live (not removed) cluster as this mode reads it (fenced: with version and owner), or null. */
    ClusterRow<S> findRow(long clusterId);

    /** The state of a live cluster, or null. */
    default S findState(long clusterId) {
        ClusterRow<S> row = findRow(clusterId);
        return row == null ? null : row.state();
    }

    /** Applies one write the native core decided; true when it hit (the row had exactly the expected token). */
    boolean apply(long clusterId, StateWrite<S, E> write);

    /** Removes the record of a cluster still at {@code expected} (see {@link KubernetesClusterStateDao#removeAt}). */
    boolean removeAt(long clusterId, Token<S> expected, StateWrite<S, E> release);

    /**
     * The row as the worker loaded it, in state {@code loaded}: compat compares the state alone, so
     * nothing is read; fenced reads the version and owner now (null: no such cluster), and a row that
     * has moved on since makes the entry's write miss.
     */
    default ClusterRow<S> rowAsLoaded(long clusterId, S loaded) {
        if (mode() != StateMode.FENCED) {
            return ClusterRow.of(loaded);
        }
        ClusterRow<S> row = findRow(clusterId);
        return row == null ? null : new ClusterRow<>(new Token<>(loaded, row.version()), row.owner());
    }
}
