package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.List;

/**
 * The native core's packed results, read into the host's constants: one decoder per result kind
 * (entry, scale step, completion, reconcile plan, recovery plan) and the write layout they share
 * (kind at bits 0-7, event 8-15, target 16-23, flags or reason 24-31; codes from {@link NativeCodes}).
 * Decides nothing: a result it cannot read is a {@link CksStateNativeException}.
 */
final class PackedResults<S extends Enum<S>, E extends Enum<E>> {
    private static final int NONE_BYTE = NativeCodes.PACKED_NONE;

    private final EnumBinding<S> states;
    private final EnumBinding<E> events;

    PackedResults(EnumBinding<S> states, EnumBinding<E> events) {
        this.states = states;
        this.events = events;
    }

    /** An entry decision of {@code operation} on state code {@code s}, read as {@code row}. */
    EntryDecision<S, E> entry(Operation operation, int s, int packed, ClusterRow<S> row, Owner me) {
        int kind = packed & 0xFF;
        switch (kind) {
            case NativeCodes.ENTRY_TRANSITION:
            case NativeCodes.ENTRY_PROCEED: {
                if (!expressible(packed)) {
                    return new EntryDecision<>(EntryDecision.Kind.REFUSE, null, null, operation, s, lacking(packed));
                }
                EntryDecision.Kind k = kind == NativeCodes.ENTRY_TRANSITION ? EntryDecision.Kind.TRANSITION
                        : EntryDecision.Kind.PROCEED;
                return new EntryDecision<>(k, write(row.token(), packed, me), null, null, -1, null);
            }
            case NativeCodes.ENTRY_NOTHING_TO_DO:
                return new EntryDecision<>(EntryDecision.Kind.NOTHING_TO_DO, null, null, null, -1, null);
            case NativeCodes.ENTRY_REFUSE:
                return new EntryDecision<>(EntryDecision.Kind.REFUSE, null, null, operation, s, null);
            case NativeCodes.ENTRY_BUSY:
                return new EntryDecision<>(EntryDecision.Kind.BUSY, null, row.owner(), null, -1, null);
            default:
                throw unexpected("entry decision", packed);
        }
    }

    /** A scale step of {@code op}, started from state code {@code s}, on the row read as {@code current}. */
    ScaleStep<S, E> scaleStep(int packed, ScaleOperation<S, E> op, int s, ClusterRow<S> current) {
        switch (packed & 0xFF) {
            case NativeCodes.SCALE_ENTER:
            case NativeCodes.SCALE_SETTINGS_ONLY: {
                boolean enter = (packed & 0xFF) == NativeCodes.SCALE_ENTER;
                ScaleStep.Kind k = enter ? ScaleStep.Kind.ENTER : ScaleStep.Kind.SETTINGS_ONLY;
                if (!expressible(packed)) {
                    return new ScaleStep<>(ScaleStep.Kind.REFUSE, null, scaleRefusal(op.kind(), s) + " (" + lacking(packed)
                            + ")", null);
                }
                return new ScaleStep<>(k, write(op.started(), packed, op.owner()), null, null);
            }
            case NativeCodes.SCALE_ALREADY_ENTERED:
                return new ScaleStep<>(ScaleStep.Kind.ALREADY_ENTERED, null, null, null);
            case NativeCodes.SCALE_FAIL_TAKEN_SINCE:
                return new ScaleStep<>(ScaleStep.Kind.FAIL_TAKEN_SINCE, null,
                        NativeBridge.scaleMessage(op.kind().code(), s, (packed >>> 16) & 0xFF), null);
            case NativeCodes.SCALE_BUSY:
                return new ScaleStep<>(ScaleStep.Kind.BUSY, null, null, current.owner());
            case NativeCodes.SCALE_REFUSE:
                return new ScaleStep<>(ScaleStep.Kind.REFUSE, null, scaleRefusal(op.kind(), s), null);
            default:
                throw unexpected("scale step", packed);
        }
    }

    /** A completion of an operation that holds {@code hold}: the write, or null to leave the cluster. */
    StateWrite<S, E> completion(int packed, Hold<S> hold) {
        if ((packed & 0xFF) == NativeCodes.COMPLETION_LEAVE) {
            return null;
        }
        if ((packed & 0xFF) != NativeCodes.COMPLETION_COMPARE_AND_SET || hold == null) {
            throw unexpected("completion", packed);
        }
        if (expressible(packed)) {
            return write(hold.token(), packed, null);
        }
        // The host cannot express the state change: a fenced completion still releases the cluster.
        Token<S> held = hold.token();
        return versioned(packed) ? new StateWrite<>(held, held.next(held.state()), null, null) : null;
    }

    /** A reconcile plan's steps from {@code expected}: count at bits 0-7, then 24 bits per step. */
    List<StateWrite<S, E>> reconcileSteps(long packed, Token<S> expected, Owner scanner) {
        int count = (int) (packed & 0xFF);
        if (count > 2) {
            throw unexpected("reconcile plan", packed);
        }
        List<StateWrite<S, E>> steps = new ArrayList<>(count);
        Token<S> from = expected;
        for (int i = 0; i < count; i++) {
            int bits = (int) (packed >>> (8 + 24 * i)) << 8;
            if (!expressible(bits)) {
                break; // the host cannot express this step: the plan stops here, as at a miss
            }
            StateWrite<S, E> step = write(from, bits, scanner);
            steps.add(step);
            from = step.target();
        }
        return steps;
    }

    /** A recovery plan: kind, count, then (cluster id, packed write and reason, version) per recovery. */
    RecoveryPlan<S, E> recoveries(long[] r) {
        RecoveryPlan.Kind kind = r == null || r.length < 2 ? null : recoveryKind(r[0]);
        if (kind == null || r[1] < 0 || r.length != 2 + 3 * r[1]) {
            throw new CksStateNativeException("cks-state native library returned a malformed recovery plan of length "
                    + (r == null ? "null" : String.valueOf(r.length)));
        }
        int n = (int) r[1];
        List<ClusterRecovery<S, E>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int packed = (int) r[3 + 3 * i];
            S expected = stateOf(packed & 0xFF);
            GoneReason reason = GoneReason.ofCode((packed >>> 24) & 0xFF);
            if (reason == null) {
                throw unexpected("recovery", packed);
            }
            int bits = (packed & 0xFF_FF00) | (r[4 + 3 * i] >= 0 ? NativeCodes.FLAG_VERSIONED << 24 : 0);
            if (expected != null && expressible(bits)) { // else the host cannot express it: leave it alone
                Token<S> token = new Token<>(expected, Math.max(Token.NO_VERSION, r[4 + 3 * i]));
                out.add(new ClusterRecovery<>(r[2 + 3 * i], write(token, bits, null), reason));
            }
        }
        return new RecoveryPlan<>(kind, out);
    }

    private static RecoveryPlan.Kind recoveryKind(long code) {
        if (code == NativeCodes.RECOVERY_SKIP) {
            return RecoveryPlan.Kind.SKIP;
        }
        if (code == NativeCodes.RECOVERY_WAIT) {
            return RecoveryPlan.Kind.WAIT;
        }
        return code == NativeCodes.RECOVERY_RECOVER ? RecoveryPlan.Kind.RECOVER : null;
    }

    /** The host's state of a library code, or null (none, or a name the host lacks). */
    private S stateOf(int code) {
        return code == NONE_BYTE ? null : states.constant(code);
    }

    /** Whether the host has the event and target of a packed write (event at bits 8-15, target 16-23). */
    private boolean expressible(int packed) {
        int event = (packed >>> 8) & 0xFF;
        int target = (packed >>> 16) & 0xFF;
        return (event == NONE_BYTE || events.constant(event) != null)
                && (target == NONE_BYTE || states.constant(target) != null);
    }

    private static boolean versioned(int packed) {
        return ((packed >>> 24) & NativeCodes.FLAG_VERSIONED) != 0;
    }

    /**
     * The write of a packed result from {@code expected}, or null when it writes nothing (no target).
     * Its tokens carry versions when the core says so (the next version is expected's + 1), and its
     * owner is {@code me} when the core says the write stores the caller.
     */
    private StateWrite<S, E> write(Token<S> expected, int packed, Owner me) {
        int event = (packed >>> 8) & 0xFF;
        int target = (packed >>> 16) & 0xFF;
        if (target == NONE_BYTE) {
            return null;
        }
        Token<S> from = versioned(packed) ? expected : Token.of(expected.state());
        Owner owner = null;
        if (((packed >>> 24) & NativeCodes.FLAG_OWNER) != 0) {
            owner = me;
            require(me, "me (the fenced mode stores the operation's owner)");
        }
        return new StateWrite<>(from, from.next(states.constant(target)), event == NONE_BYTE ? null
                : events.constant(event), owner);
    }

    /** A compare-and-set in host constants, or null when the host lacks one of the names. */
    StateUpdate<S, E> update(int expected, int event, int target) {
        S from = states.constant(expected);
        E by = events.constant(event);
        S to = states.constant(target);
        return from == null || by == null || to == null ? null : new StateUpdate<>(from, by, to);
    }

    /** The core's message for a scale of this kind refused from this state (cold). */
    private static String scaleRefusal(ScaleKind kind, int startedCode) {
        return NativeBridge.scaleMessage(kind.code(), startedCode, NativeBridge.NONE);
    }

    private String lacking(int packed) {
        return "the host's enums lack " + events.libraryName((packed >>> 8) & 0xFF) + " or "
                + states.libraryName((packed >>> 16) & 0xFF);
    }

    private static void require(Object value, String argument) {
        if (value == null) {
            throw new IllegalArgumentException(argument + " is null");
        }
    }

    static CksStateNativeException unexpected(String what, long packed) {
        return new CksStateNativeException("cks-state native library returned an unexpected " + what
                + " 0x" + Long.toHexString(packed));
    }
}
