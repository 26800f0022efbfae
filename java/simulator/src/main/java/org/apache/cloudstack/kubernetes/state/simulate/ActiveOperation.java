// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

/** An operation inside a cluster: it entered the cluster's state, or went ahead without one. */
final class ActiveOperation {
    final ScriptedOperation script;
    final int server;
    final long runid;
    /** True when it moved the cluster (compare-and-set), false when it proceeded without. */
    final boolean entered;
    /** The state it moved the cluster to, or null. */
    final String movedTo;
    /** The status scanner failed it while it was still running (the upstream design's window). */
    volatile boolean failedByScanner;
    /**
     * A start whose Starting cluster a stop took over (compat: the table's Starting -> Stopping): it
     * runs on, unaware, and an operation entering the cluster later is that window's, not a double entry.
     */
    volatile boolean takenOver;
    /**
     * A zombie completion's compare-and-set hit the state this operation had moved the cluster to
     * (compat: both wrote the same state, such as two scales' Scaling): it runs on, unaware.
     */
    volatile boolean overrunByZombie;

    ActiveOperation(ScriptedOperation script, int server, long runid, boolean entered, String movedTo) {
        this.script = script;
        this.server = server;
        this.runid = runid;
        this.entered = entered;
        this.movedTo = movedTo;
    }

    @Override
    public String toString() {
        return "operation " + script.index() + " (" + script.kind() + (entered ? ", moved it to " + movedTo
                : ", went ahead") + ", server " + server + " run " + runid + ")";
    }
}
