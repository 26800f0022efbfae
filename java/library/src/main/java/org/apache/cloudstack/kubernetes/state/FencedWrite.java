package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/**
 * One fenced compare-and-set: {@code UPDATE kubernetes_cluster SET state = target.state,
 * state_version = target.version, op_owner_* = owner WHERE id = ? AND state = expected.state AND
 * state_version = expected.version}. {@code target.version} is {@code expected.version + 1}, so a
 * hit always changes the row (whatever the driver's affected-rows setting).
 *
 * @param event the table row's event; null when the state stays (taking or releasing the cluster)
 * @param owner stored by the write; null releases the cluster
 */
public record FencedWrite<S, E>(Token<S> expected, Token<S> target, E event, Owner owner) {
    public FencedWrite {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(target, "target");
    }

    /** True when the write changes the state (else it only takes or releases the cluster). */
    public boolean movesState() {
        return !expected.state().equals(target.state());
    }
}
