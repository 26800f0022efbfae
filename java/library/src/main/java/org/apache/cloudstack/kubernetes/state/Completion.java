package org.apache.cloudstack.kubernetes.state;

/** How to end an operation: apply {@code update}, or leave the state alone when it is null. */
public record Completion<S, E>(StateUpdate<S, E> update) {
    private static final Completion<?, ?> LEAVE = new Completion<>(null);

    /** The shared "leave it" completion. */
    @SuppressWarnings("unchecked")
    public static <S, E> Completion<S, E> leave() {
        return (Completion<S, E>) LEAVE;
    }

    /** True when the operation must not touch the state. */
    public boolean leaveIt() {
        return update == null;
    }
}
