package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/** A cluster as the fenced scanner read it: in an operation's state, or held by an operation. */
public record FencedCandidate<S>(long id, Fence<S> fence) {
    public FencedCandidate {
        Objects.requireNonNull(fence, "fence");
    }
}
