// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The simulation's watchdog: a stall becomes an exception with a thread dump, progress never does. */
class WatchdogTest {
    @Test
    @Timeout(30)
    void noProgressInterruptsTheWatchedThreadWithAThreadDump() {
        Watchdog.Stalled stalled = assertThrows(Watchdog.Stalled.class, () -> {
            try (Watchdog watchdog = Watchdog.start(() -> 42, 1000)) {
                try {
                    Thread.sleep(20_000); // a wait that would hang
                } catch (InterruptedException e) {
                    watchdog.throwIfStalled();
                }
            }
        });
        assertTrue(stalled.getMessage().startsWith("simulate made no progress for 1.0 s: stalled"), stalled.getMessage());
        String me = Thread.currentThread().getName();
        assertTrue(stalled.threadDump().contains("\"" + me + "\""), "the dump names the stalled thread: " + me);
        assertTrue(stalled.threadDump().contains("java.lang.Thread.sleep"), stalled.threadDump());
    }

    @Test
    @Timeout(30)
    void progressKeepsItQuiet() throws InterruptedException {
        AtomicLong ticks = new AtomicLong();
        try (Watchdog watchdog = Watchdog.start(ticks::get, 500)) {
            long end = System.nanoTime() + 2_000_000_000L;
            while (System.nanoTime() < end) {
                ticks.incrementAndGet();
                Thread.sleep(50);
            }
            assertFalse(watchdog.stalled());
            watchdog.throwIfStalled();
        }
    }
}
