package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/** A candidate cluster as the compat scanner read it (fenced mode reads a {@link FencedCandidate}). */
public record ClusterSnapshot<S>(long id, S state) {
    public ClusterSnapshot {
        Objects.requireNonNull(state, "state");
    }
}
