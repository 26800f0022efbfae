// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** How the operations of a run ended at their entry. */
final class OperationOutcomes {
    enum EntryOutcome { ENTERED, PROCEEDED, NOTHING_TO_DO, REFUSED, LOST_RACE }

    private final Map<EntryOutcome, AtomicInteger> counts = new EnumMap<>(EntryOutcome.class);
    final AtomicInteger crashedMidOperation = new AtomicInteger();
    final AtomicInteger rerouted = new AtomicInteger();
    final AtomicInteger workFailed = new AtomicInteger();
    final AtomicInteger completionMissed = new AtomicInteger();
    /** Operations ended by a database error (connection lost, server restarted, ...). */
    final AtomicInteger databaseErrors = new AtomicInteger();
    /** Of those, jobs that could not be marked failed once the database answered again. */
    final AtomicInteger jobsLeftInProgress = new AtomicInteger();

    OperationOutcomes() {
        for (EntryOutcome o : EntryOutcome.values()) {
            counts.put(o, new AtomicInteger());
        }
    }

    void count(EntryOutcome outcome) {
        counts.get(outcome).incrementAndGet();
    }

    int get(EntryOutcome outcome) {
        return counts.get(outcome).get();
    }

    /** Every outcome counted so far: it grows while workers get anywhere. */
    long finished() {
        long n = crashedMidOperation.get() + rerouted.get() + databaseErrors.get();
        for (AtomicInteger c : counts.values()) {
            n += c.get();
        }
        return n;
    }
}
