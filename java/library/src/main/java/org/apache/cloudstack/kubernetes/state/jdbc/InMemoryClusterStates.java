// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.HashMap;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;

/**
 * Cluster rows in memory, written by the same compare-and-set as the database ({@link CompareAndSetRule}):
 * for the unit tests of a host that has no database (CloudStack's CI), with the real core deciding.
 * Thread-safe. Never for a management server: its states live in {@code kubernetes_cluster}.
 */
public final class InMemoryClusterStates<S extends Enum<S>, E extends Enum<E>> implements ClusterStateStore<S, E> {
    private record Entry<S>(ClusterRow<S> row, boolean removed) {
    }

    private final ClusterStateMachine<S, E> machine;
    private final boolean fenced;
    private final Map<Long, Entry<S>> rows = new HashMap<>();
    private long nextId = 1;

    public InMemoryClusterStates(ClusterStateMachine<S, E> machine) {
        this.machine = Arguments.required(machine, "machine");
        this.fenced = machine.mode() == StateMode.FENCED;
    }

    @Override
    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    /** A new cluster in {@code state}, free (fenced: version 0); its id. */
    public synchronized long add(S state) {
        long id = nextId++;
        rows.put(id, new Entry<>(fenced ? ClusterRow.of(state, 0, null) : ClusterRow.of(state), false));
        return id;
    }

    /**
     * Sets the state as another writer would (a server without cks-state, an operator): fenced, as the
     * schema's trigger answers such a write ({@link FencedVersionTrigger}), a changed state grows the
     * version and clears the owner; the same state changes nothing.
     */
    public synchronized void setState(long clusterId, S state) {
        Entry<S> e = entry(clusterId);
        if (e.row().state() == state) {
            return;
        }
        ClusterRow<S> row = fenced ? ClusterRow.of(state, e.row().version() + 1, null) : ClusterRow.of(state);
        rows.put(clusterId, new Entry<>(row, e.removed()));
    }

    /** The stored row, removed or not. */
    public synchronized ClusterRow<S> row(long clusterId) {
        return entry(clusterId).row();
    }

    public synchronized boolean removed(long clusterId) {
        return entry(clusterId).removed();
    }

    private Entry<S> entry(long clusterId) {
        Entry<S> e = rows.get(clusterId);
        if (e == null) {
            throw new IllegalArgumentException("clusterId: no cluster " + clusterId);
        }
        return e;
    }

    @Override
    public synchronized ClusterRow<S> findRow(long clusterId) {
        Entry<S> e = rows.get(clusterId);
        return e == null || e.removed() ? null : e.row();
    }

    @Override
    public synchronized boolean apply(long clusterId, StateWrite<S, E> write) {
        Arguments.required(write, "write");
        if (!CompareAndSetRule.valid(machine, clusterId, write)) {
            return false;
        }
        ClusterRow<S> row = findRow(clusterId);
        if (row == null || !CompareAndSetRule.matches(row, write.expected(), fenced)) {
            return false;
        }
        rows.put(clusterId, new Entry<>(CompareAndSetRule.written(write, fenced), false));
        return true;
    }

    @Override
    public synchronized boolean removeAt(long clusterId, Token<S> expected, StateWrite<S, E> release) {
        Arguments.required(expected, "expected");
        if (!CompareAndSetRule.validRemoval(machine, clusterId, expected, release)) {
            return false;
        }
        ClusterRow<S> row = findRow(clusterId);
        if (row == null || !CompareAndSetRule.matches(row, expected, fenced)) {
            return false;
        }
        rows.put(clusterId, new Entry<>(fenced ? ClusterRow.of(expected.state(), release.target().version(), null) : row, true));
        return true;
    }
}
