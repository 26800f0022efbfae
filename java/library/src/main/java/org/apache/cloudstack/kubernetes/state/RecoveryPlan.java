package org.apache.cloudstack.kubernetes.state;

import java.util.List;

/** What one status-scanner pass does about orphaned operation states. Immutable. */
public final class RecoveryPlan<S, E> {
    /** The plan's verdict. */
    public enum Kind {
        /** No candidate in an operation state: skip the job lookup entirely. */
        SKIP,
        /** An IN_PROGRESS job of an unknown cluster exists (older server): recover nothing this pass. */
        WAIT,
        /** Fail {@link #recoveries()} by compare-and-set (may be empty: every candidate has a job). */
        RECOVER
    }

    private final Kind kind;
    private final List<ClusterRecovery<S, E>> recoveries;

    public RecoveryPlan(Kind kind, List<ClusterRecovery<S, E>> recoveries) {
        if (kind == null) {
            throw new IllegalArgumentException("kind is null");
        }
        this.kind = kind;
        this.recoveries = List.copyOf(recoveries);
    }

    public Kind kind() {
        return kind;
    }

    /** The orphans to fail, in candidate order; empty unless RECOVER. */
    public List<ClusterRecovery<S, E>> recoveries() {
        return recoveries;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecoveryPlan<?, ?> other && kind == other.kind && recoveries.equals(other.recoveries);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + recoveries.hashCode();
    }

    @Override
    public String toString() {
        return kind + " " + recoveries;
    }
}
