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

    /** The next scaling step; {@code current} is the row re-read just before it. */
    public FencedScaleStep<S, E> nextStep(Fence<S> current) {
        if (hold != null) {
            return new FencedScaleStep<>(FencedScaleStep.Kind.ALREADY_HELD, null, null, null);
        }
        if (current == null) {
            throw new IllegalArgumentException("current is null");
        }
        int s = fenced.stateCode(started.state(), "started.state");
        int c = fenced.stateCode(current.state(), "current.state");
        int packed = FencedNativeBridge.scaleStep(fenced.profileCode(), kind.ordinal(), s, started.version(), c,
                current.version(), current.isHeld());
        switch (packed & 0xFF) {
            case 0: {
                FencedWrite<S, E> write = fenced.write(started, packed, me);
                if (write == null) { // the host's enums lack the scaling state or event
                    return new FencedScaleStep<>(FencedScaleStep.Kind.REFUSE, null, refusal(s), null);
                }
                return new FencedScaleStep<>(FencedScaleStep.Kind.TAKE, write, null, null);
            }
            case 2:
                return new FencedScaleStep<>(FencedScaleStep.Kind.FAIL_TAKEN_SINCE, null,
                        ScaleMessages.takenSince(kind, fenced.stateLibraryName((packed >>> 16) & 0xFF)), null);
            case 3:
                return new FencedScaleStep<>(FencedScaleStep.Kind.BUSY, null, null, current.owner());
            case 4:
                return new FencedScaleStep<>(FencedScaleStep.Kind.REFUSE, null, refusal(s), null);
            default:
                throw ClusterStateMachine.unexpected("fenced scale step", packed);
        }
    }

    /** Records that the TAKE compare-and-set {@code write} hit. */
    public void markHeld(FencedWrite<S, E> write) {
        if (write == null) {
            throw new IllegalArgumentException("write is null");
        }
        boolean moved = write.movesState();
        hold = new Hold<>(write.target(), moved ? write.target().state() : null);
    }

    /** How the operation ends: null when it never held the cluster (leave it). */
    public FencedWrite<S, E> completion(boolean succeeded) {
        return hold == null ? null : fenced.completion(hold, succeeded ? Outcome.SUCCEEDED : Outcome.FAILED);
    }

    private String refusal(int startedCode) {
        return NativeBridge.scaleRefusalReason(kind.ordinal(), startedCode);
    }

    @Override
    public String toString() {
        return "FencedScale[" + kind + " from " + started + (hold == null ? "" : ", holding " + hold) + "]";
    }
}
