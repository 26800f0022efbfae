package org.apache.cloudstack.kubernetes.state.internal;

import java.util.List;
import java.util.Objects;

/** What one status-scanner pass does about orphaned operations, in either mode. Immutable. */
public record RecoveryPlan<S, E>(Kind kind, List<ClusterRecovery<S, E>> recoveries) {
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
        RECOVER
    }

    public RecoveryPlan {
        Objects.requireNonNull(kind, "kind");
        recoveries = List.copyOf(recoveries);
    }

    @Override
    public String toString() {
        return kind + " " + recoveries;
    }
}
