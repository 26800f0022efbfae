package org.apache.cloudstack.kubernetes.state;

/**
 * May an operation start from the cluster's current state? Immutable.
 *
 * <p>The refusal message is produced on demand, so the hot path that decides does no string work.
 */
public final class EntryDecision<S, E> {
    /** What the worker does. */
    public enum Kind {
        /** Compare-and-set {@link #update()} before changing anything; a miss means "please retry". */
        TRANSITION,
        /** Go ahead without a state change (an exemption such as start from Alert). */
        PROCEED,
        /** Already done: succeed without doing any work. */
        NOTHING_TO_DO,
        /** The operation is not allowed from this state: fail with {@link #refusal()}. */
        REFUSE
    }

    private static final EntryDecision<?, ?> PROCEED = new EntryDecision<>(Kind.PROCEED, null, null, -1, null);
    private static final EntryDecision<?, ?> NOTHING_TO_DO =
            new EntryDecision<>(Kind.NOTHING_TO_DO, null, null, -1, null);

    private final Kind kind;
    private final StateUpdate<S, E> update;
    private final Operation operation;
    private final int stateCode;
    private final String note;

    private EntryDecision(Kind kind, StateUpdate<S, E> update, Operation operation, int stateCode, String note) {
        this.kind = kind;
        this.update = update;
        this.operation = operation;
        this.stateCode = stateCode;
        this.note = note;
    }

    static <S, E> EntryDecision<S, E> transition(StateUpdate<S, E> update) {
        return new EntryDecision<>(Kind.TRANSITION, update, null, -1, null);
    }

    @SuppressWarnings("unchecked")
    static <S, E> EntryDecision<S, E> proceed() {
        return (EntryDecision<S, E>) PROCEED;
    }

    @SuppressWarnings("unchecked")
    static <S, E> EntryDecision<S, E> nothingToDo() {
        return (EntryDecision<S, E>) NOTHING_TO_DO;
    }

    /** A refusal; {@code note} (may be null) is appended to the native message. */
    static <S, E> EntryDecision<S, E> refuse(Operation operation, int stateCode, String note) {
        return new EntryDecision<>(Kind.REFUSE, null, operation, stateCode, note);
    }

    public Kind kind() {
        return kind;
    }

    /** The compare-and-set to enter the operation's state: TRANSITION only, else null. */
    public StateUpdate<S, E> update() {
        return update;
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
        return o instanceof EntryDecision<?, ?> other && kind == other.kind
                && java.util.Objects.equals(update, other.update) && operation == other.operation
                && stateCode == other.stateCode && java.util.Objects.equals(note, other.note);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(kind, update, operation, stateCode, note);
    }

    @Override
    public String toString() {
        switch (kind) {
            case TRANSITION:
                return "TRANSITION " + update;
            case REFUSE:
                return "REFUSE: " + refusal();
            default:
                return kind.name();
        }
    }
}
