// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * A cluster row as read: its token (state, and the version in fenced mode) and the owner of the
 * operation holding it (null: free, and always in compat mode).
 */
public record ClusterRow<S>(Token<S> token, Owner owner) {
    public ClusterRow {
        Arguments.required(token, "token");
    }

    /** A compat row: the state alone. */
    public static <S> ClusterRow<S> of(S state) {
        return new ClusterRow<>(Token.of(state), null);
    }

    public static <S> ClusterRow<S> of(S state, long version, Owner owner) {
        return new ClusterRow<>(new Token<>(state, version), owner);
    }

    public S state() {
        return token.state();
    }

    public long version() {
        return token.version();
    }

    public boolean isHeld() {
        return owner != null;
    }
}
