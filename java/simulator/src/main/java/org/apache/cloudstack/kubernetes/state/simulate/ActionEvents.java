// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import org.apache.cloudstack.kubernetes.state.simulate.OperationOutcomes.EntryOutcome;

/**
 * What a server's workers and scanner do, told to a checker outside the process: the process
 * simulation logs them ({@link LoggedActions}); in one JVM the monitor sees them directly, so
 * {@link #NONE} ignores them. Intents come before the action, results after it.
 */
interface ActionEvents {
    ActionEvents NONE = new ActionEvents() { };

    /** Before the entry's compare-and-set. */
    default void entering(ScriptedOperation op, long clusterId) {
    }

    /** After the entry: how it ended, and the state it moved the cluster to (null: none). */
    default void entered(ScriptedOperation op, long clusterId, EntryOutcome outcome, String movedTo) {
    }

    /** Before the completion's compare-and-set. */
    default void completing(ScriptedOperation op, long clusterId) {
    }

    /** After the completion: whether its compare-and-set hit; {@code moved}: it had one to do. */
    default void completed(ScriptedOperation op, long clusterId, boolean moved, boolean hit, boolean workFailed) {
    }

    /** The worker ended on a database error; {@code jobLeft}: its job could not be failed. */
    default void abandoned(ScriptedOperation op, long clusterId, boolean jobLeft) {
    }

    /** A compare-and-set's latency. */
    default void latency(long nanos) {
    }

    /** Before the scanner's recovery compare-and-set. */
    default void recovering(long clusterId) {
    }

    /** After it. */
    default void recovered(long clusterId, boolean hit) {
    }

    /** After a scanner pass: what {@link ScannerStats} counts of it. */
    default void pass(int statements, int recovered, int missed, int reconciled, boolean waited, boolean skipped) {
    }

    /** A scanner pass ended on a database error. */
    default void passFailed() {
    }
}
