// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.apache.cloudstack.kubernetes.state.GoneReason;
import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;

/**
 * One orphan the status scanner fails (or, fenced and held at rest, releases) by compare-and-set on
 * the token that was read, and why its operation is provably gone.
 */
public record ClusterRecovery<S, E>(long clusterId, StateWrite<S, E> write, GoneReason reason) {
    public ClusterRecovery {
        Arguments.required(write, "write");
        Arguments.required(reason, "reason");
    }
}
