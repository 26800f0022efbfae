// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cloudstack.kubernetes.state.jdbc.ReconcileResult;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;

/** What the status scanner passes of a run did. */
final class ScannerStats {
    final AtomicInteger passes = new AtomicInteger();
    final AtomicInteger statements = new AtomicInteger();
    final AtomicInteger maxStatementsPerPass = new AtomicInteger();
    final AtomicInteger jobLookupsSkipped = new AtomicInteger();
    final AtomicInteger waited = new AtomicInteger();
    final AtomicInteger recovered = new AtomicInteger();
    final AtomicInteger recoveryMissed = new AtomicInteger();
    final AtomicInteger reconciled = new AtomicInteger();
    /** Passes ended by a database error; the next pass starts afresh. */
    final AtomicInteger databaseErrors = new AtomicInteger();

    void record(RecoveryResult<?> recovery, ReconcileResult<?> reconcile) {
        passes.incrementAndGet();
        int pass = recovery.statements() + reconcile.statements();
        statements.addAndGet(pass);
        maxStatementsPerPass.accumulateAndGet(pass, Math::max);
        if (recovery.jobLookupSkipped()) {
            jobLookupsSkipped.incrementAndGet();
        }
        if (recovery.kind() == RecoveryResult.Kind.WAITED) {
            waited.incrementAndGet();
        }
        recovered.addAndGet(recovery.recoveredIds().size());
        recoveryMissed.addAndGet(recovery.missedIds().size());
        reconciled.addAndGet(reconcile.moved().size());
    }
}
