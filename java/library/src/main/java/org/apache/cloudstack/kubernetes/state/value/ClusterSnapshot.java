// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/** A candidate cluster as the status scanner read it: its id and its row. */
public record ClusterSnapshot<S>(long id, ClusterRow<S> row) {
    public ClusterSnapshot {
        Arguments.required(row, "row");
    }

    /** A compat candidate: the state alone. */
    public ClusterSnapshot(long id, S state) {
        this(id, ClusterRow.of(state));
    }

    public S state() {
        return row.state();
    }
}
