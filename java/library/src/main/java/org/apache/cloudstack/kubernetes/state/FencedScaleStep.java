package org.apache.cloudstack.kubernetes.state;

/**
 * One step of a {@link FencedScale}: TAKE (compare-and-set {@link #write()}, then
 * {@link FencedScale#markHeld}; from Created the write only takes the cluster), ALREADY_HELD,
 * FAIL_TAKEN_SINCE (started from Created but a start took the cluster: {@link #message()}), BUSY
 * ({@link #busyOwner()} holds it), REFUSE ({@link #message()}).
 */
public record FencedScaleStep<S, E>(Kind kind, FencedWrite<S, E> write, String message, Owner busyOwner) {
    /** What the step does. */
    public enum Kind { TAKE, ALREADY_HELD, FAIL_TAKEN_SINCE, BUSY, REFUSE }
}
