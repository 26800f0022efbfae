// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/**
 * Entry rules already decoded, by operation and state code, each with the packed value it was
 * decoded from: the result objects are immutable, so {@code decideEntry} hands out the same one for
 * the same native answer and the hot path allocates nothing. Filled lazily; a race only decodes
 * twice (a record's final fields make the publication safe).
 */
final class EntryCache<S, E> {
    private record Decoded<S, E>(long packed, EntryDecision<S, E> decision) {
    }

    private final Decoded<S, E>[] slots;
    private final int stateCodeCount;

    @SuppressWarnings("unchecked")
    EntryCache(int stateCodeCount) {
        this.stateCodeCount = stateCodeCount;
        this.slots = (Decoded<S, E>[]) new Decoded<?, ?>[Operation.values().length * stateCodeCount];
    }

    /** The decision decoded from {@code packed} for this operation and state, or null. */
    EntryDecision<S, E> get(Operation operation, int stateCode, long packed) {
        Decoded<S, E> d = slots[operation.ordinal() * stateCodeCount + stateCode];
        return d != null && d.packed() == packed ? d.decision() : null;
    }

    void put(Operation operation, int stateCode, long packed, EntryDecision<S, E> decision) {
        slots[operation.ordinal() * stateCodeCount + stateCode] = new Decoded<>(packed, decision);
    }
}
