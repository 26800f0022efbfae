package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/** One orphaned cluster to fail by compare-and-set on the state that was read. */
public record ClusterRecovery<S, E>(long clusterId, StateUpdate<S, E> update) {
    public ClusterRecovery {
        Objects.requireNonNull(update, "update");
    }
}
