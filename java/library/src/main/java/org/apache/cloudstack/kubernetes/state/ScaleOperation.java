package org.apache.cloudstack.kubernetes.state;

/**
 * One scale or autoscale operation: remembers the state it started from and whether it moved the
 * cluster, so it enters Scaling / ScalingStoppedCluster once and only completes what it moved.
 * Not thread-safe: one per worker.
 */
public final class ScaleOperation<S extends Enum<S>, E extends Enum<E>> {
    private final ClusterStateMachine<S, E> machine;
    private final ScaleKind kind;
    private final S startedFrom;
    private final int startedFromCode;
    private final ScaleStep<S, E> admission;
    private S entered;
    private S pendingEnter;

    ScaleOperation(ClusterStateMachine<S, E> machine, ScaleKind kind, S startedFrom, int startedFromCode,
            ScaleStep<S, E> admission) {
        this.machine = machine;
        this.kind = kind;
        this.startedFrom = startedFrom;
        this.startedFromCode = startedFromCode;
        this.admission = admission;
    }

    public ScaleKind kind() {
        return kind;
    }

    public S startedFrom() {
        return startedFrom;
    }

    /**
     * May this operation start at all, decided from {@link #startedFrom()} when the request is
     * accepted: ENTER (with the update its first step will make), SETTINGS_ONLY or REFUSE.
     */
    public ScaleStep<S, E> admission() {
        return admission;
    }

    /** The state this operation moved the cluster to, or null until {@link #markEntered()}. */
    public S enteredState() {
        return entered;
    }

    public boolean movedCluster() {
        return entered != null;
    }

    /** What the next scaling step does, given the cluster's state as just re-read. */
    public ScaleStep<S, E> nextStep(S currentState) {
        int current = machine.stateCode(currentState, "currentState");
        int enteredCode = entered == null ? NativeBridge.NONE : machine.stateCode(entered, "entered");
        int packed = NativeBridge.scaleStep(machine.profileCode(), kind.ordinal(), startedFromCode, enteredCode, current);
        ScaleStep<S, E> step = machine.scaleStep(packed, kind, startedFrom);
        pendingEnter = step.kind() == ScaleStep.Kind.ENTER ? step.update().target() : null;
        return step;
    }

    /** Records that the ENTER compare-and-set of the last step hit. */
    public void markEntered() {
        if (pendingEnter == null) {
            throw new IllegalStateException("markEntered() without an ENTER step to confirm");
        }
        entered = pendingEnter;
        pendingEnter = null;
    }

    /** How to end the operation: only one that moved the cluster completes or fails its state. */
    public Completion<S, E> completion(boolean succeeded) {
        if (entered == null) {
            return Completion.leave();
        }
        return machine.completion(entered, succeeded ? Outcome.SUCCEEDED : Outcome.FAILED);
    }

    @Override
    public String toString() {
        return "ScaleOperation[" + kind + " from " + startedFrom + (entered == null ? "" : ", entered " + entered) + "]";
    }
}
