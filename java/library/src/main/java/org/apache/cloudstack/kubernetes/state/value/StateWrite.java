// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

import java.util.Objects;

/**
 * One compare-and-set the native core decided. Compat mode: {@code UPDATE kubernetes_cluster SET
 * state = target.state WHERE id = ? AND state = expected.state} (no version, no owner, always a
 * state change). Fenced mode: also {@code state_version = target.version, op_owner_* = owner ...
 * AND state_version = expected.version}, with {@code target.version = expected.version + 1}, so a hit
 * always changes the row (whatever the driver's affected-rows setting).
 *
 * <p>A write the library decoded from the core's answer carries the mark of the machine that asked
 * (an object only that machine holds): its store applies it without asking the core again. A write a
 * host builds with the constructor carries none, and a store checks it against the core's shape rule
 * first. Equality ignores the mark.
 *
 * @param <S> the host's state enum
 * @param <E> the host's event enum
 */
public final class StateWrite<S, E> {
    private final Token<S> expected;
    private final Token<S> target;
    private final E event;
    private final Owner owner;
    private final Object mark;

    /**
     * A write the host built; {@code event} null when the state stays (taking or releasing the cluster),
     * {@code owner} stored by the write (null releases the cluster in fenced mode, stores nothing in compat).
     */
    public StateWrite(Token<S> expected, Token<S> target, E event, Owner owner) {
        this(expected, target, event, owner, null);
    }

    private StateWrite(Token<S> expected, Token<S> target, E event, Owner owner, Object mark) {
        Arguments.required(expected, "expected");
        Arguments.required(target, "target");
        if (expected.versioned() != target.versioned()) {
            throw new IllegalArgumentException("write " + expected + " -> " + target
                    + ": both tokens carry a version (fenced) or neither (compat)");
        }
        this.expected = expected;
        this.target = target;
        this.event = event;
        this.owner = owner;
        this.mark = mark;
    }

    /**
     * Library-internal (public only to cross packages): a write decoded from the core's answer, marked by the
     * asking machine's private {@code mark}. A host gains nothing by calling it: no store knows its mark.
     */
    public static <S, E> StateWrite<S, E> decided(Object mark, Token<S> expected, Token<S> target, E event,
            Owner owner) {
        return new StateWrite<>(expected, target, event, owner, Arguments.required(mark, "mark"));
    }

    /** A compat write: the table row {@code update}, compared on the state alone. */
    public static <S, E> StateWrite<S, E> of(StateUpdate<S, E> update) {
        return new StateWrite<>(Token.of(update.expected()), Token.of(update.target()), update.event(), null);
    }

    /** Library-internal: true when the core decided this write for the machine holding {@code mark}. */
    public boolean decidedFor(Object mark) {
        return mark != null && this.mark == mark;
    }

    public Token<S> expected() {
        return expected;
    }

    public Token<S> target() {
        return target;
    }

    /** The table row's event; null when the state stays (taking or releasing the cluster). */
    public E event() {
        return event;
    }

    /** Stored by the write; null releases the cluster (fenced) or stores nothing (compat). */
    public Owner owner() {
        return owner;
    }

    /** True when the write changes the state (else it only takes or releases the cluster). */
    public boolean movesState() {
        return !expected.state().equals(target.state());
    }

    /** True when the write compares and bumps the version (fenced mode). */
    public boolean versioned() {
        return expected.versioned();
    }

    /** The table row this write applies, or null when the state stays. */
    public StateUpdate<S, E> update() {
        return event == null ? null : new StateUpdate<>(expected.state(), event, target.state());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateWrite<?, ?> w && expected.equals(w.expected) && target.equals(w.target)
                && Objects.equals(event, w.event) && Objects.equals(owner, w.owner);
    }

    @Override
    public int hashCode() {
        return Objects.hash(expected, target, event, owner);
    }

    @Override
    public String toString() {
        String tokens = versioned() ? expected + " -> " + target : expected.state() + " -> " + target.state();
        return tokens + (event == null ? "" : " by " + event) + (owner == null ? "" : " owner " + owner);
    }
}
