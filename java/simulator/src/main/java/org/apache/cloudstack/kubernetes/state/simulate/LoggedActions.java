// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import org.apache.cloudstack.kubernetes.state.simulate.OperationOutcomes.EntryOutcome;

/** {@link ActionEvents} as lines of a server process's {@link ActionLog}; the parent's checker reads them. */
final class LoggedActions implements ActionEvents {
    private final ActionLog log;

    LoggedActions(ActionLog log) {
        this.log = log;
    }

    @Override
    public void entering(ScriptedOperation op, long clusterId) {
        log.write("ENTER", op.index(), clusterId);
    }

    @Override
    public void entered(ScriptedOperation op, long clusterId, EntryOutcome outcome, String movedTo) {
        log.write("ENTERED", op.index(), clusterId, outcome, movedTo == null ? "-" : movedTo);
    }

    @Override
    public void completing(ScriptedOperation op, long clusterId) {
        log.write("COMPLETE", op.index(), clusterId);
    }

    @Override
    public void completed(ScriptedOperation op, long clusterId, boolean moved, boolean hit, boolean workFailed) {
        log.write("COMPLETED", op.index(), clusterId, moved, hit, workFailed);
    }

    @Override
    public void abandoned(ScriptedOperation op, long clusterId, boolean jobLeft) {
        log.write("ABANDONED", op.index(), clusterId, jobLeft);
    }

    @Override
    public void latency(long nanos) {
        log.write("CAS", nanos);
    }

    @Override
    public void recovering(long clusterId) {
        log.write("RECOVER", clusterId);
    }

    @Override
    public void recovered(long clusterId, boolean hit) {
        log.write("RECOVERED", clusterId, hit);
    }

    @Override
    public void pass(int statements, int recovered, int missed, int reconciled, boolean waited, boolean skipped) {
        log.write("PASS", statements, recovered, missed, reconciled, waited, skipped);
    }

    @Override
    public void passFailed() {
        log.write("PASS_FAILED");
    }
}
