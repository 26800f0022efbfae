// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
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
final class StateWrites {
    private static final Logger LOG = LogManager.getLogger(StateWrites.class);

    private StateWrites() {
    }

    /** Only writes of the core's shape for this mode: a table transition (or none), a version that grows. */
    static <S extends Enum<S>, E extends Enum<E>> boolean valid(ClusterStateMachine<S, E> machine, long clusterId,
            StateWrite<S, E> w, boolean versioned) {
        S expected = w.expected().state();
        S target = w.target().state();
        boolean shape = w.event() == null ? versioned && target == expected
                : machine.nextState(expected, w.event()) == target && (versioned || target != expected);
        // A version that does not grow would let an old token hit again.
        boolean version = versioned ? w.versioned() && w.target().version() > w.expected().version()
                : !w.versioned() && !w.target().versioned() && w.owner() == null;
        if (!shape || !version) {
            LOG.warn("Kubernetes cluster {}: {} is not a {} write of the table; not written", clusterId, w,
                    versioned ? "fenced" : "compat");
            return false;
        }
        return true;
    }

    /** A removal at {@code expected}: compat releases nothing (null); fenced stores a grown version in the same state. */
    static <S> boolean validRemoval(long clusterId, Token<S> expected, Token<S> released, boolean fenced) {
        if (fenced != (released != null) || (released != null && (released.state() != expected.state()
                || released.version() <= expected.version()))) {
            LOG.warn("Kubernetes cluster {}: removal at {} released as {} is not a {} write; not written", clusterId,
                    expected, released, fenced ? "fenced" : "compat");
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
