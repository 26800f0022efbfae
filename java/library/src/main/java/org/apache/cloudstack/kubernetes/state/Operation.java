// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/**
 * An operation on a cluster. Ordinal = code in {@code spec/state-machine.tsv}; the loader checks
 * that the native library names the operations in this order.
 */
public enum Operation {
    START("Start"),
    STOP("Stop"),
    DESTROY("Destroy"),
    SCALE("Scale"),
    AUTOSCALE("Autoscale"),
    UPGRADE("Upgrade"),
    ADD_NODES("AddNodes"),
    REMOVE_NODES("RemoveNodes"),
    /** Used by the status scanner only. */
    RECOVER("Recover");

    private final String specName;

    Operation(String specName) {
        this.specName = specName;
    }

    /** The operation's name in {@code spec/state-machine.tsv}. */
    public String specName() {
        return specName;
    }
}
