// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;

/**
 * May an operation start, and what does its entry write? Decided by the native core for the
 * machine's mode. Immutable. The refusal message is produced on demand, so the hot path that decides
 * does no string work.
 */
public final class EntryDecision<S, E> {
    /** What the worker does. */
    public enum Kind {
        /** Compare-and-set {@link #write()} into the operation's state first; a miss means "please retry". */
        TRANSITION,
        /**
         * Go ahead without a state change (an exemption such as start from Alert). Fenced mode: first
         * compare-and-set {@link #write()}, which takes the cluster and keeps its state.
         */
        PROCEED,
        /** Already done: succeed without doing any work. */
        NOTHING_TO_DO,
        /** The operation is not allowed from this state: fail with {@link #refusal()}. */
        REFUSE,
        /** Another operation, {@link #busyOwner()}, holds the cluster (fenced mode): "please retry". */
        BUSY
    }

    private final Kind kind;
    private final StateWrite<S, E> write;
    private final Hold<S> hold;
    private final Owner busyOwner;
    private final Operation operation;
    private final int stateCode;
    private final String note;

    /** TRANSITION: the entry's write into the operation's state, and what the operation keeps once it hit. */
    static <S, E> EntryDecision<S, E> transition(StateWrite<S, E> write, Hold<S> hold) {
        return new EntryDecision<>(Kind.TRANSITION, write, hold, null, null, -1, null);
    }

    /** PROCEED: fenced mode's take of the cluster (null in compat, which writes nothing), and what the operation keeps. */
    static <S, E> EntryDecision<S, E> proceed(StateWrite<S, E> write, Hold<S> hold) {
        return new EntryDecision<>(Kind.PROCEED, write, hold, null, null, -1, null);
    }

    static <S, E> EntryDecision<S, E> nothingToDo() {
        return new EntryDecision<>(Kind.NOTHING_TO_DO, null, null, null, null, -1, null);
    }

    /** REFUSE: {@code operation} from state code {@code stateCode}; {@code note} says why when the table alone does not. */
    static <S, E> EntryDecision<S, E> refuse(Operation operation, int stateCode, String note) {
        return new EntryDecision<>(Kind.REFUSE, null, null, null, operation, stateCode, note);
    }

    static <S, E> EntryDecision<S, E> busy(Owner holder) {
        return new EntryDecision<>(Kind.BUSY, null, null, holder, null, -1, null);
    }

    private EntryDecision(Kind kind, StateWrite<S, E> write, Hold<S> hold, Owner busyOwner, Operation operation,
            int stateCode, String note) {
        this.kind = kind;
        this.write = write;
        this.hold = hold;
        this.busyOwner = busyOwner;
        this.operation = operation;
        this.stateCode = stateCode;
        this.note = note;
    }

    public Kind kind() {
        return kind;
    }

    /** The compare-and-set of the entry: TRANSITION, and PROCEED in fenced mode; else null. */
    public StateWrite<S, E> write() {
        return write;
    }

    /** The table row of the entry: TRANSITION only, else null. */
    public StateUpdate<S, E> update() {
        return write == null ? null : write.update();
    }

    /**
     * What the operation keeps once {@link #write()} hit (or, without a write, once it goes ahead): the
     * core's hold, TRANSITION and PROCEED only, else null.
     */
    public Hold<S> hold() {
        return hold;
    }

    /** BUSY: who holds the cluster; else null. */
    public Owner busyOwner() {
        return busyOwner;
    }

    /** Why the operation is refused, naming the operation and the state: REFUSE only, else null. */
    public String refusal() {
        if (kind != Kind.REFUSE) {
            return null;
        }
        String reason = NativeBridge.refusalReason(operation.ordinal(), stateCode);
        return note == null ? reason : reason + " (" + note + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntryDecision<?, ?> other && kind == other.kind && Objects.equals(write, other.write)
                && Objects.equals(hold, other.hold)
                && Objects.equals(busyOwner, other.busyOwner) && operation == other.operation
                && stateCode == other.stateCode && Objects.equals(note, other.note);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, write, hold, busyOwner, operation, stateCode, note);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case TRANSITION, PROCEED -> write == null ? kind.name() : kind + " " + write;
            case REFUSE -> "REFUSE: " + refusal();
            case BUSY -> "BUSY " + busyOwner;
            default -> kind.name();
        };
    }
}
