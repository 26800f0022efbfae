package org.apache.cloudstack.kubernetes.state;

import java.util.Objects;

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
    private final Owner busyOwner;
    private final Operation operation;
    private final int stateCode;
    private final String note;

    EntryDecision(Kind kind, StateWrite<S, E> write, Owner busyOwner, Operation operation, int stateCode,
            String note) {
        this.kind = kind;
        this.write = write;
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

    /** What the operation keeps once {@link #write()} hit (or, without a write, once it goes ahead). */
    public Hold<S> hold(S current) {
        if (write == null) {
            return new Hold<>(Token.of(current), null);
        }
        return new Hold<>(write.target(), write.movesState() ? write.target().state() : null);
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
                && Objects.equals(busyOwner, other.busyOwner) && operation == other.operation
                && stateCode == other.stateCode && Objects.equals(note, other.note);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, write, busyOwner, operation, stateCode, note);
    }

    @Override
    public String toString() {
        switch (kind) {
            case TRANSITION:
            case PROCEED:
                return write == null ? kind.name() : kind + " " + write;
            case REFUSE:
                return "REFUSE: " + refusal();
            case BUSY:
                return "BUSY " + busyOwner;
            default:
                return kind.name();
        }
    }
}
