package org.apache.cloudstack.kubernetes.state;

/**
 * One scale or autoscale operation in fenced mode: the compat scaling rules plus the token read
 * when the request was accepted (every take expects it) and the hold once a take hit. From Created
 * the take only holds the cluster, so a start and the settings change exclude each other.
 * Not thread-safe: one per worker.
 */
public final class FencedScale<S extends Enum<S>, E extends Enum<E>> {
    private final FencedStateMachine<S, E> fenced;
    private final ScaleKind kind;
    private final Token<S> started;
    private final Owner me;
    private Hold<S> hold;
    /** The last take nextStep planned, and whether the core said it moves the state. */
    private FencedWrite<S, E> plannedTake;
    private boolean plannedTakeMoves;

    FencedScale(FencedStateMachine<S, E> fenced, ScaleKind kind, Token<S> started, Owner me) {
        this.fenced = fenced;
        this.kind = kind;
        this.started = started;
        this.me = me;
    }

    public ScaleKind kind() {
        return kind;
    }

    public Token<S> started() {
        return started;
    }

    public Owner owner() {
        return me;
    }

    /** The hold after a take hit, else null. */
    public Hold<S> hold() {
        return hold;
    }

    /** True when this operation moved the cluster into a scaling state. */
    public boolean movedCluster() {
        return hold != null && hold.movedTo() != null;
    }

    /**
     * The next scaling step; {@code current} is the row re-read just before it (may be null once
     * this scale holds the cluster: nothing is read then).
     */
    public FencedScaleStep<S, E> nextStep(Fence<S> current) {
        if (current == null) {
            if (hold == null) {
                throw new IllegalArgumentException("current is null");
            }
            current = Fence.of(hold.token().state(), hold.token().version(), me);
        }
        int s = fenced.stateCode(started.state(), "started.state");
        int c = fenced.stateCode(current.state(), "current.state");
        int h = hold == null ? NativeBridge.NONE : fenced.stateCode(hold.token().state(), "hold.state");
        int m = hold == null || hold.movedTo() == null ? NativeBridge.NONE
                : fenced.stateCode(hold.movedTo(), "hold.movedTo");
        int packed = FencedNativeBridge.scaleStep(fenced.profileCode(), kind.ordinal(), s, started.version(), h,
                hold == null ? 0 : hold.token().version(), m, c, current.version(), current.isHeld());
        int stepKind = packed & 0xFF;
        switch (stepKind) {
            case NativeCodes.SCALE_ENTER:
            case NativeCodes.SCALE_SETTINGS_ONLY: {
                FencedWrite<S, E> write = fenced.write(started, packed, me);
                if (write == null) { // the host's enums lack the scaling state or event
                    return new FencedScaleStep<>(FencedScaleStep.Kind.REFUSE, null, refusal(s), null);
                }
                plannedTake = write;
                plannedTakeMoves = stepKind == NativeCodes.SCALE_ENTER;
                return new FencedScaleStep<>(FencedScaleStep.Kind.TAKE, write, null, null);
            }
            case NativeCodes.SCALE_ALREADY_ENTERED:
                return new FencedScaleStep<>(FencedScaleStep.Kind.ALREADY_HELD, null, null, null);
            case NativeCodes.SCALE_FAIL_TAKEN_SINCE:
                return new FencedScaleStep<>(FencedScaleStep.Kind.FAIL_TAKEN_SINCE, null,
                        ScaleMessages.takenSince(kind, fenced.stateLibraryName((packed >>> 16) & 0xFF)), null);
            case NativeCodes.SCALE_BUSY:
                return new FencedScaleStep<>(FencedScaleStep.Kind.BUSY, null, null, current.owner());
            case NativeCodes.SCALE_REFUSE:
                return new FencedScaleStep<>(FencedScaleStep.Kind.REFUSE, null, refusal(s), null);
            default:
                throw ClusterStateMachine.unexpected("fenced scale step", packed);
        }
    }

    /** Records that the TAKE compare-and-set {@code write}, which {@link #nextStep} planned, hit. */
    public void markHeld(FencedWrite<S, E> write) {
        if (write == null) {
            throw new IllegalArgumentException("write is null");
        }
        if (!write.equals(plannedTake)) {
            throw new IllegalArgumentException("write is not the take this scale's last nextStep planned: " + write);
        }
        hold = FencedStateMachine.hold(write, plannedTakeMoves);
        plannedTake = null;
    }

    /** How the operation ends: null when it never held the cluster (leave it). */
    public FencedWrite<S, E> completion(boolean succeeded) {
        return fenced.completionOf(hold, succeeded ? Outcome.SUCCEEDED : Outcome.FAILED);
    }

    private String refusal(int startedCode) {
        return NativeBridge.scaleRefusalReason(kind.ordinal(), startedCode);
    }

    @Override
    public String toString() {
        return "FencedScale[" + kind + " from " + started + (hold == null ? "" : ", holding " + hold) + "]";
    }
}
