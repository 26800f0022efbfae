// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

/** A simulated cluster: its script index, database id and uuid, and the state it started in. */
record SimCluster(int index, long id, String uuid, String initialState) {
}
