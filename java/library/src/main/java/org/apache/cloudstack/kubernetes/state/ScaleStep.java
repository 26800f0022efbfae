package org.apache.cloudstack.kubernetes.state;

/**
 * What one scaling step of a {@link ScaleOperation} does.
 *
 * @param kind    what to do
 * @param update  the compare-and-set into Scaling / ScalingStoppedCluster: ENTER only, else null
 * @param message why the step fails: FAIL_TAKEN_SINCE and REFUSE only, else null
 */
public record ScaleStep<S, E>(Kind kind, StateUpdate<S, E> update, String message) {
    /** What the worker does at this step. */
    public enum Kind {
        /** A never-started cluster: change the stored settings only, no state change. */
        SETTINGS_ONLY,
        /** Compare-and-set {@code update}, then call {@link ScaleOperation#markEntered()}; a miss fails. */
        ENTER,
        /** This operation already moved the cluster: nothing to transition. */
        ALREADY_ENTERED,
        /** Another operation (a start) has taken the cluster since the request was accepted: fail. */
        FAIL_TAKEN_SINCE,
        /** This kind of scale cannot start from the state the operation started from: fail. */
        REFUSE
    }
}
