package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/**
 * One orphaned cluster to fail by compare-and-set. {@code expectedVersion} is the version token
 * that was read, or {@link ClusterSnapshot#NO_VERSION}.
 */
public record ClusterRecovery<S, E>(long clusterId, StateUpdate<S, E> update, long expectedVersion) {
    public ClusterRecovery {
        Objects.requireNonNull(update, "update");
    }
}
