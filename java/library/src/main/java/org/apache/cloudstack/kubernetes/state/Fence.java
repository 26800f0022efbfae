package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

/** The fence columns of a cluster row as read: its token, and the owner holding it (null: free). */
public record Fence<S>(Token<S> token, Owner owner) {
    public Fence {
        Objects.requireNonNull(token, "token");
    }

    public static <S> Fence<S> of(S state, long version, Owner owner) {
        return new Fence<>(new Token<>(state, version), owner);
    }

    public S state() {
        return token.state();
    }

    public long version() {
        return token.version();
    }

    public boolean isHeld() {
        return owner != null;
    }
}
