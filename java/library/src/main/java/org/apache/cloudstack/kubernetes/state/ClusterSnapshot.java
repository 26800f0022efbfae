package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/**
 * A candidate cluster as the scanner read it. {@code version} is the row's version token, or
 * {@link #NO_VERSION} when the schema has none (upstream CloudStack has none today).
 */
public record ClusterSnapshot<S>(long id, S state, long version) {
    public static final long NO_VERSION = -1;

    public ClusterSnapshot {
        Objects.requireNonNull(state, "state");
    }

    /** A snapshot without a version token. */
    public ClusterSnapshot(long id, S state) {
        this(id, state, NO_VERSION);
    }
}
