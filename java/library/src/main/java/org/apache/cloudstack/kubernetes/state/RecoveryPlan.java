// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * What one status-scanner pass does about orphaned operations, in either mode. Immutable.
 * {@code ownerJobsToCheck}: NEEDS_OWNER_EVIDENCE only, the owners' jobs whose status the core needs.
 */
public record RecoveryPlan<S, E>(Kind kind, List<ClusterRecovery<S, E>> recoveries, List<Long> ownerJobsToCheck) {
    /** The plan's verdict. */
    public enum Kind {
        /** No candidate: skip the job lookup entirely. */
        SKIP,
        /**
         * An IN_PROGRESS job of an unknown cluster exists (older server) and a candidate without
         * owner might be its cluster: recover nothing this pass.
         */
        WAIT,
        /** Fail (fenced, held at rest: release) {@link #recoveries()} (may be empty). */
        RECOVER,
        /**
         * A candidate is held (fenced): read the hosts and which of {@link #ownerJobsToCheck()} ended,
         * then plan again with them.
         */
        NEEDS_OWNER_EVIDENCE
    }

    public RecoveryPlan {
        Arguments.required(kind, "kind");
        recoveries = List.copyOf(recoveries);
        ownerJobsToCheck = List.copyOf(ownerJobsToCheck);
    }

    /** A plan that asks for nothing. */
    public RecoveryPlan(Kind kind, List<ClusterRecovery<S, E>> recoveries) {
        this(kind, recoveries, List.of());
    }

    @Override
    public String toString() {
        return kind + " " + (kind == Kind.NEEDS_OWNER_EVIDENCE ? ownerJobsToCheck : recoveries);
    }
}
