// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * One compare-and-set the native core decided. Compat mode: {@code UPDATE kubernetes_cluster SET
 * state = target.state WHERE id = ? AND state = expected.state} (no version, no owner, always a
 * state change). Fenced mode: also {@code state_version = target.version, op_owner_* = owner ...
 * AND state_version = expected.version}, with {@code target.version = expected.version + 1}, so a hit
 * always changes the row (whatever the driver's affected-rows setting).
 *
 * @param event the table row's event; null when the state stays (taking or releasing the cluster)
 * @param owner stored by the write; null releases the cluster (fenced) or stores nothing (compat)
 */
public record StateWrite<S, E>(Token<S> expected, Token<S> target, E event, Owner owner) {
    public StateWrite {
        Arguments.required(expected, "expected");
        Arguments.required(target, "target");
        if (expected.versioned() != target.versioned()) {
            throw new IllegalArgumentException("write " + expected + " -> " + target
                    + ": both tokens carry a version (fenced) or neither (compat)");
        }
    }

    /** A compat write: the table row {@code update}, compared on the state alone. */
    public static <S, E> StateWrite<S, E> of(StateUpdate<S, E> update) {
        return new StateWrite<>(Token.of(update.expected()), Token.of(update.target()), update.event(), null);
    }

    /** True when the write changes the state (else it only takes or releases the cluster). */
    public boolean movesState() {
        return !expected.state().equals(target.state());
    }

    /** True when the write compares and bumps the version (fenced mode). */
    public boolean versioned() {
        return expected.versioned();
    }

    /** The table row this write applies, or null when the state stays. */
    public StateUpdate<S, E> update() {
        return event == null ? null : new StateUpdate<>(expected.state(), event, target.state());
    }

    @Override
    public String toString() {
        String tokens = versioned() ? expected + " -> " + target : expected.state() + " -> " + target.state();
        return tokens + (event == null ? "" : " by " + event) + (owner == null ? "" : " owner " + owner);
    }
}
