// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

/**
 * Observes the points of a {@link ClusterStateScanner} pass, on the scanning thread:
 * for monitoring, for simulations and for tests that interleave other writers between the
 * scanner's reads and its compare-and-sets. Every method defaults to doing nothing; a listener
 * that throws aborts the pass (after {@link #afterRecovery} of an update in flight).
 */
public interface ScanListener {

    /** The orphan candidates were read (and that read committed); the job lookup comes next. */
    default void candidatesRead() {
    }

    /** The IN_PROGRESS cluster jobs were read; the compare-and-sets come next. */
    default void jobsRead() {
    }

    /** The orphans the pass will recover, in order, before the first compare-and-set (applying passes only). */
    default void recoveriesPlanned(java.util.List<Long> clusterIds) {
    }

    /** Just before the recovery compare-and-set of one orphan. */
    default void beforeRecovery(long clusterId) {
    }

    /** Just after it ({@code hit} false on a miss, a lost race or a failure); always paired with beforeRecovery. */
    default void afterRecovery(long clusterId, boolean hit) {
    }

    /** The Alert / Running clusters were listed; each one's health is asked just before its steps. */
    default void reconcileListed() {
    }

    /** Just after one reconciliation compare-and-set ({@code hit} false on a miss: that cluster's steps stop). */
    default void afterReconcileStep(long clusterId, boolean hit) {
    }
}
