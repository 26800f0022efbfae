package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/**
 * What an operation keeps after its entry write hit: the token that write stored (its completion
 * expects exactly it) and the state it moved the cluster to (null: it only took the cluster).
 */
public record Hold<S>(Token<S> token, S movedTo) {
    public Hold {
        Objects.requireNonNull(token, "token");
    }
}
