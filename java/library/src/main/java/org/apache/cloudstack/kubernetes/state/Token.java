package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/**
 * What a fenced compare-and-set expects: the cluster's state and its {@code state_version} as read.
 * Every write bumps the version, so a token misses after ANY write since it was read.
 */
public record Token<S>(S state, long version) {
    public Token {
        Objects.requireNonNull(state, "state");
        if (version < 0) {
            throw new IllegalArgumentException("version " + version + " is negative");
        }
    }
}
