// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.concurrent.TimeUnit;

/** The simulations' bounded sleeps: an interrupt ends them and is kept for the caller's loop. */
final class Sleep {
    private Sleep() {
    }

    /** Sleeps; false once interrupted (the interrupt flag stays set). */
    static boolean millis(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Sleeps until {@code nanoTime} ({@link System#nanoTime()}); false once interrupted. */
    static boolean until(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        return left <= 0 || millis(TimeUnit.NANOSECONDS.toMillis(left) + 1);
    }
}
