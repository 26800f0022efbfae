// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * What an operation keeps after its entry: the token of the row as its entry left it (its completion
 * expects exactly it; no version in compat mode) and the state it moved the cluster to (null: it did
 * not move the state).
 */
public record Hold<S>(Token<S> token, S movedTo) {
    public Hold {
        Arguments.required(token, "token");
    }
}
