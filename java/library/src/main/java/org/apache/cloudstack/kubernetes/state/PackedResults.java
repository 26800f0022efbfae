// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.apache.cloudstack.kubernetes.state.value.Arguments.required;

import java.util.ArrayList;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;

/**
 * The native core's packed results, read into the host's constants. Every write crosses in the one
 * layout of {@code jni/wire.tsv} ({@code field write ...}), read by the generated
 * {@link NativeCodes} readers: kind, event, target state, flags and the version the write stores.
 * The tokens and holds are the core's as it built them: this class copies them, computes none.
 * Decides nothing: a result it cannot read is a {@link CksStateNativeException}.
 */
final class PackedResults<S extends Enum<S>, E extends Enum<E>> {
    private static final int NONE = NativeCodes.PACKED_NONE;

    private final EnumBinding<S> states;
    private final EnumBinding<E> events;
    /** Marks the writes read here as the core's: a store applies them without asking again. */
    private final Object mark = new Object();

    PackedResults(EnumBinding<S> states, EnumBinding<E> events) {
        this.states = states;
        this.events = events;
    }

    /** An entry decision of {@code operation} on state code {@code s}, read as {@code row}. */
    EntryDecision<S, E> entry(Operation operation, int s, long packed, ClusterRow<S> row, Owner me) {
        int kind = NativeCodes.writeKind(packed);
        switch (kind) {
            case NativeCodes.ENTRY_TRANSITION:
            case NativeCodes.ENTRY_PROCEED: {
                if (!expressible(packed)) {
                    return EntryDecision.refuse(operation, s, lacking(packed));
                }
                StateWrite<S, E> write = write(row.token(), packed, me);
                Hold<S> hold = hold(write, packed, row.token());
                return kind == NativeCodes.ENTRY_TRANSITION ? EntryDecision.transition(write, hold)
                        : EntryDecision.proceed(write, hold);
            }
            case NativeCodes.ENTRY_NOTHING_TO_DO:
                return EntryDecision.nothingToDo();
            case NativeCodes.ENTRY_REFUSE:
                return EntryDecision.refuse(operation, s, null);
            case NativeCodes.ENTRY_BUSY:
                return EntryDecision.busy(row.owner());
            default:
                throw unexpected("entry decision", packed);
        }
    }

    /** A scale step of {@code op}, started from state code {@code s}, on the row read as {@code current}. */
    ScaleStep<S, E> scaleStep(long packed, ScaleOperation<S, E> op, int s, ClusterRow<S> current) {
        int kind = NativeCodes.writeKind(packed);
        return switch (kind) {
            case NativeCodes.SCALE_ENTER, NativeCodes.SCALE_SETTINGS_ONLY -> {
                if (!expressible(packed)) {
                    yield new ScaleStep<>(ScaleStep.Kind.REFUSE, null, scaleRefusal(op.kind(), s) + " ("
                            + lacking(packed) + ")", null, null);
                }
                ScaleStep.Kind k = kind == NativeCodes.SCALE_ENTER ? ScaleStep.Kind.ENTER
                        : ScaleStep.Kind.SETTINGS_ONLY;
                StateWrite<S, E> write = write(op.started(), packed, op.owner());
                yield new ScaleStep<>(k, write, null, null, write == null ? null : hold(write, packed, null));
            }
            case NativeCodes.SCALE_ALREADY_ENTERED -> new ScaleStep<>(ScaleStep.Kind.ALREADY_ENTERED, null, null, null,
                    null);
            case NativeCodes.SCALE_FAIL_TAKEN_SINCE -> new ScaleStep<>(ScaleStep.Kind.FAIL_TAKEN_SINCE, null,
                    NativeBridge.scaleMessage(op.kind().code(), s, NativeCodes.writeTarget(packed)), null, null);
            case NativeCodes.SCALE_BUSY -> new ScaleStep<>(ScaleStep.Kind.BUSY, null, null, current.owner(), null);
            case NativeCodes.SCALE_REFUSE -> new ScaleStep<>(ScaleStep.Kind.REFUSE, null,
                    scaleRefusal(op.kind(), s), null, null);
            default -> throw unexpected("scale step", packed);
        };
    }

    /** A completion of an operation that holds {@code hold}: the write, or null to leave the cluster. */
    StateWrite<S, E> completion(long packed, Hold<S> hold) {
        int kind = NativeCodes.writeKind(packed);
        if (kind == NativeCodes.COMPLETION_LEAVE) {
            return null;
        }
        if (kind != NativeCodes.COMPLETION_COMPARE_AND_SET || hold == null) {
            throw unexpected("completion", packed);
        }
        if (expressible(packed)) {
            return write(hold.token(), packed, null);
        }
        // The host cannot express the state change: a fenced completion still releases the cluster.
        Token<S> held = hold.token();
        return versioned(packed) ? StateWrite.decided(mark, held, new Token<>(held.state(),
                NativeCodes.writeVersion(packed)), null, null) : null;
    }

    /** Upstream's updateState write from {@code from}: null when there is none or the host cannot express it. */
    StateWrite<S, E> upstream(long packed, S from) {
        int kind = NativeCodes.writeKind(packed);
        if (kind == NativeCodes.UPDATE_NO_ROW || kind == NativeCodes.UPDATE_STAYS) {
            return null;
        }
        if (kind != NativeCodes.UPDATE_WRITE || versioned(packed)) {
            throw unexpected("upstream write", packed);
        }
        return expressible(packed) ? write(Token.of(from), packed, null) : null;
    }

    /** Whether the core decided {@code write} for a machine of these results in the mode it was decided for. */
    boolean decided(StateWrite<S, E> write, boolean fenced) {
        return write.decidedFor(mark) && write.versioned() == fenced;
    }

    /** A reconcile plan's steps, the first from {@code expected}, each next from the last one's target. */
    List<StateWrite<S, E>> reconcileSteps(long[] packed, Token<S> expected, Owner scanner) {
        if (packed == null || packed.length > 2) {
            throw new CksStateNativeException("cks-state native library returned a malformed reconcile plan of "
                    + (packed == null ? "null" : packed.length + " steps"));
        }
        List<StateWrite<S, E>> steps = new ArrayList<>(packed.length);
        Token<S> from = expected;
        for (long step : packed) {
            if (!expressible(step)) {
                break; // the host cannot express this step: the plan stops here, as at a miss
            }
            StateWrite<S, E> write = write(from, step, scanner);
            steps.add(write);
            from = write.target();
        }
        return steps;
    }

    /** A recovery plan: [kind, count], then per recovery (cluster id, expected token, write with its reason as kind). */
    RecoveryPlan<S, E> recoveries(long[] r) {
        int header = NativeCodes.RECOVERY_HEADER_LENGTH;
        int stride = NativeCodes.RECOVERY_ENTRY_LENGTH;
        RecoveryPlan.Kind kind = r == null || r.length < header ? null
                : recoveryKind(r[NativeCodes.RECOVERY_HEADER_KIND]);
        long n = kind == null ? -1 : r[NativeCodes.RECOVERY_HEADER_COUNT];
        if (kind == RecoveryPlan.Kind.NEEDS_OWNER_EVIDENCE && n >= 0 && r.length == header + n) {
            List<Long> jobs = new ArrayList<>((int) n);
            for (int i = header; i < r.length; i++) {
                jobs.add(r[i]);
            }
            return new RecoveryPlan<>(kind, List.of(), jobs);
        }
        if (kind == null || kind == RecoveryPlan.Kind.NEEDS_OWNER_EVIDENCE || n < 0 || r.length != header + stride * n) {
            throw new CksStateNativeException("cks-state native library returned a malformed recovery plan of length "
                    + (r == null ? "null" : String.valueOf(r.length)));
        }
        List<ClusterRecovery<S, E>> out = new ArrayList<>((int) n);
        for (int i = header; i < r.length; i += stride) {
            long write = r[i + NativeCodes.RECOVERY_ENTRY_WRITE];
            GoneReason reason = GoneReason.ofCode(NativeCodes.writeKind(write));
            if (reason == null) {
                throw unexpected("recovery", write);
            }
            long token = r[i + NativeCodes.RECOVERY_ENTRY_EXPECTED];
            S expected = stateOf(NativeCodes.tokenState(token));
            if (expected != null && expressible(write)) { // else the host cannot express it: leave it alone
                Token<S> from = versioned(write) ? new Token<>(expected, NativeCodes.tokenVersion(token))
                        : Token.of(expected);
                out.add(new ClusterRecovery<>(r[i + NativeCodes.RECOVERY_ENTRY_CLUSTER], write(from, write, null),
                        reason));
            }
        }
        return new RecoveryPlan<>(kind, out);
    }

    private static RecoveryPlan.Kind recoveryKind(long code) {
        return code == NativeCodes.RECOVERY_SKIP ? RecoveryPlan.Kind.SKIP
                : code == NativeCodes.RECOVERY_WAIT ? RecoveryPlan.Kind.WAIT
                : code == NativeCodes.RECOVERY_RECOVER ? RecoveryPlan.Kind.RECOVER
                : code == NativeCodes.RECOVERY_EVIDENCE ? RecoveryPlan.Kind.NEEDS_OWNER_EVIDENCE : null;
    }

    /** The host's state of a library code, or null (none, or a name the host lacks). */
    private S stateOf(int code) {
        return code == NONE ? null : states.constant(code);
    }

    /** Whether the host has the event and target of a packed write. */
    private boolean expressible(long packed) {
        int event = NativeCodes.writeEvent(packed);
        int target = NativeCodes.writeTarget(packed);
        return (event == NONE || events.constant(event) != null) && (target == NONE || states.constant(target) != null);
    }

    private static boolean versioned(long packed) {
        return (NativeCodes.writeFlags(packed) & NativeCodes.FLAG_VERSIONED) != 0;
    }

    /**
     * The write of a packed result from {@code expected} (the token the host passed), or null when it
     * writes nothing (no target). Its target token is the core's (the version it stores when
     * VERSIONED), and its owner is {@code me} when the core says the write stores the caller.
     */
    private StateWrite<S, E> write(Token<S> expected, long packed, Owner me) {
        int event = NativeCodes.writeEvent(packed);
        int target = NativeCodes.writeTarget(packed);
        if (target == NONE) {
            return null;
        }
        boolean versioned = versioned(packed);
        Token<S> from = versioned ? expected : Token.of(expected.state());
        S to = states.constant(target);
        Owner owner = null;
        if ((NativeCodes.writeFlags(packed) & NativeCodes.FLAG_OWNER) != 0) {
            owner = me;
            required(me, "me (the fenced mode stores the operation's owner)");
        }
        return StateWrite.decided(mark, from, versioned ? new Token<>(to, NativeCodes.writeVersion(packed))
                : Token.of(to), event == NONE ? null : events.constant(event), owner);
    }

    /**
     * The hold the core built for a take: the write's target token, moved to the target when MOVED. No
     * write (a compat proceed): the row as read ({@code read}), the core's {@code EntryDecision::hold};
     * DifferentialReplayTest checks that the two agree.
     */
    private Hold<S> hold(StateWrite<S, E> write, long packed, Token<S> read) {
        if (write == null) {
            return read == null ? null : new Hold<>(Token.of(read.state()), null);
        }
        boolean moved = (NativeCodes.writeFlags(packed) & NativeCodes.FLAG_MOVED) != 0;
        return new Hold<>(write.target(), moved ? write.target().state() : null);
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

    private String lacking(long packed) {
        return "the host's enums lack " + events.libraryName(NativeCodes.writeEvent(packed)) + " or "
                + states.libraryName(NativeCodes.writeTarget(packed));
    }

    static CksStateNativeException unexpected(String what, long packed) {
        return new CksStateNativeException("cks-state native library returned an unexpected " + what
                + " 0x" + Long.toHexString(packed));
    }
}
