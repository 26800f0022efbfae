// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The compare-and-set every {@link ClusterStateStore} applies, written once: which writes a store
 * accepts, when a row matches what a write expects, and the row it leaves. The database's statements
 * ({@link KubernetesClusterStateDao#CAS_SQL}, {@link KubernetesClusterStateDao#FENCED_CAS_SQL}) say the
 * same in SQL; {@code StoresAgreeTest} runs every operation from every state through both.
 */
final class CompareAndSetRule {
    private static final Logger LOG = LogManager.getLogger(CompareAndSetRule.class);

    private CompareAndSetRule() {
    }

    /** Only writes of the core's shape for the machine's mode (its one rule); any other is logged and refused. */
    static <S extends Enum<S>, E extends Enum<E>> boolean valid(ClusterStateMachine<S, E> machine, long clusterId,
            StateWrite<S, E> w) {
        return valid(clusterId, w, machine.shapeError(w));
    }

    /**
     * A removal at {@code expected}: compat releases nothing (null); fenced releases the hold, a write from
     * {@code expected} of the fenced shape with no event (it keeps the state) and no owner.
     */
    static <S extends Enum<S>, E extends Enum<E>> boolean validRemoval(ClusterStateMachine<S, E> machine,
            long clusterId, Token<S> expected, StateWrite<S, E> release) {
        boolean fenced = machine.mode() == StateMode.FENCED;
        // A release of another token, or one that stores an owner, is no release; the rest is the core's rule.
        if (fenced != (release != null)
                || (release != null && (!release.expected().equals(expected) || release.event() != null || release.owner() != null))) {
            LOG.warn("Kubernetes cluster {}: removal at {} released by {} is not a {} removal; not written", clusterId,
                    expected, release, machine.mode().label());
            return false;
        }
        return !fenced || valid(clusterId, release, machine.shapeError(release));
    }

    private static boolean valid(long clusterId, StateWrite<?, ?> w, String shapeError) {
        if (shapeError != null) {
            LOG.warn("Kubernetes cluster {}: {} is not of the core's shape ({}); not written", clusterId, w, shapeError);
            return false;
        }
        return true;
    }

    /** Does a live row have the token a write expects? Compat compares the state, fenced the version too. */
    static <S> boolean matches(ClusterRow<S> row, Token<S> expected, boolean fenced) {
        return row.state() == expected.state() && (!fenced || row.version() == expected.version());
    }

    /** The row a hit leaves: the target state; fenced, its version and the write's owner (null: released). */
    static <S, E> ClusterRow<S> written(StateWrite<S, E> w, boolean fenced) {
        return fenced ? ClusterRow.of(w.target().state(), w.target().version(), w.owner()) : ClusterRow.of(w.target().state());
    }
}
