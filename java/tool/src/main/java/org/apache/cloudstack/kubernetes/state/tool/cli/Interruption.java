// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT or SIGTERM during an {@code --apply}: the work stops after the transaction in flight, and the
 * command prints what it did and what it left before the JVM exits (status 130 or 143). The JVM runs
 * shutdown hooks on those signals; this one asks the work to stop, then waits (bounded) until the
 * command has printed its report.
 */
final class Interruption {
    /** How long the JVM waits for the report after a signal: one transaction and the printing. */
    static final long REPORT_WAIT_SECONDS = 60;

    private final CountDownLatch reported = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean requested;

    private Interruption(boolean install) {
        hook = install ? new Thread(this::onSignal, "cks-state-interruption") : null;
        if (hook != null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /** Listens for the signals while the command writes. */
    static Interruption whileWriting() {
        return new Interruption(true);
    }

    /** A read-only command: nothing to stop. */
    static Interruption none() {
        return new Interruption(false);
    }

    private void onSignal() {
        requested = true;
        try {
            reported.await(REPORT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a signal asked the work to stop. */
    boolean requested() {
        return requested;
    }

    /** The report is out: the JVM may exit; without a signal, the hook is removed. */
    void reported() {
        reported.countDown();
        if (hook != null && !requested) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook runs and returns at once
            }
        }
    }

    /** Thrown into the scanner's pass to stop it before its next compare-and-set. */
    static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("stopped by a signal", null, false, false);
        }
    }
}
