package org.apache.cloudstack.kubernetes.state;

/**
 * The fenced entry of an operation: TAKE (compare-and-set {@link #write()}; on a hit keep
 * {@link #hold()}, on a miss fail with "please retry"; covers both the compat TRANSITION and
 * PROCEED, the latter keeping the state), NOTHING_TO_DO, REFUSE ({@link #refusal()}), or BUSY
 * (another operation, {@link #busyOwner()}, holds the cluster: "please retry").
 */
public record FencedEntry<S, E>(Kind kind, FencedWrite<S, E> write, Hold<S> hold, String refusal, Owner busyOwner) {
    /** What the worker does. */
    public enum Kind { TAKE, NOTHING_TO_DO, REFUSE, BUSY }

    /** True for a TAKE that moves the state (the compat TRANSITION). */
    public boolean transitions() {
        return kind == Kind.TAKE && write.movesState();
    }
}
