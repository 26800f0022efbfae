// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * One compare-and-set: move a cluster from {@code expected} to {@code target} by {@code event}.
 * The host applies it with {@code UPDATE ... WHERE id = ? AND state = expected}.
 */
public record StateUpdate<S, E>(S expected, E event, S target) {
    public StateUpdate {
        Arguments.required(expected, "expected");
        Arguments.required(event, "event");
        Arguments.required(target, "target");
    }

    @Override
    public String toString() {
        return expected + " -" + event + "-> " + target;
    }
}
