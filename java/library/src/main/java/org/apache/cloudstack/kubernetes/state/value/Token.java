// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * What a compare-and-set expects: the cluster's state and, in fenced mode, its {@code state_version}
 * as read ({@link #NO_VERSION} in compat mode, which compares the state only). Every fenced write
 * bumps the version, so a fenced token misses after ANY write since it was read.
 */
public record Token<S>(S state, long version) {
    /** The version of a compat token: none is compared or written. */
    public static final long NO_VERSION = -1;

    public Token {
        Arguments.required(state, "state");
        if (version < NO_VERSION) {
            throw new IllegalArgumentException("version " + version + " is negative");
        }
    }

    /** A compat token: the state alone. */
    public static <S> Token<S> of(S state) {
        return new Token<>(state, NO_VERSION);
    }

    /** True when the token carries a version (fenced mode). */
    public boolean versioned() {
        return version != NO_VERSION;
    }
}
