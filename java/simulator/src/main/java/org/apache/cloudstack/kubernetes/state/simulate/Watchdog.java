// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.function.LongSupplier;

/**
 * Fails a simulation that stops making progress instead of letting it hang: a daemon thread
 * samples a progress counter and, when it has not moved for {@code stallMillis}, takes a thread
 * dump and interrupts the thread it watches, which then throws {@link Stalled}.
 */
public final class Watchdog implements AutoCloseable {
    /** The run made no progress for the bound: the message says how long, {@link #threadDump()} why. */
    public static final class Stalled extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String threadDump;

        Stalled(String message, String threadDump) {
            super(message);
            this.threadDump = threadDump;
        }

        public String threadDump() {
            return threadDump;
        }
    }

    private static final long SAMPLE_MILLIS = 250;

    private final LongSupplier progress;
    private final long stallMillis;
    private final Thread watched;
    private final Thread thread;
    private volatile String dump;
    private volatile boolean closed;

    private Watchdog(LongSupplier progress, long stallMillis, Thread watched) {
        this.progress = progress;
        this.stallMillis = stallMillis;
        this.watched = watched;
        this.thread = new Thread(this::watch, "cks-simulate-watchdog");
        this.thread.setDaemon(true);
    }

    /** Watches the calling thread. */
    static Watchdog start(LongSupplier progress, long stallMillis) {
        Watchdog w = new Watchdog(progress, stallMillis, Thread.currentThread());
        w.thread.start();
        return w;
    }

    private void watch() {
        long last = progress.getAsLong();
        long since = System.nanoTime();
        while (!closed) {
            try {
                Thread.sleep(SAMPLE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = progress.getAsLong();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= stallMillis * 1_000_000L) {
                dump = threadDump();
                watched.interrupt();
                return;
            }
        }
    }

    /** Throws {@link Stalled} if the watchdog fired; call where the watched thread was interrupted. */
    void throwIfStalled() {
        String d = dump;
        if (d != null) {
            throw new Stalled("simulate made no progress for " + stallMillis / 1000.0 + " s: stalled (a deadlock or"
                    + " a lost thread); thread dump follows", d);
        }
    }

    boolean stalled() {
        return dump != null;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }

    /** Every live thread's stack and the locks it holds and waits for. */
    static String threadDump() {
        StringBuilder out = new StringBuilder();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            out.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
            if (info.getLockName() != null) {
                out.append(" on ").append(info.getLockName());
            }
            if (info.getLockOwnerName() != null) {
                out.append(" owned by \"").append(info.getLockOwnerName()).append('"');
            }
            out.append('\n');
            for (StackTraceElement e : info.getStackTrace()) {
                out.append("    at ").append(e).append('\n');
            }
            for (java.lang.management.LockInfo held : info.getLockedSynchronizers()) {
                out.append("    holds ").append(held).append('\n');
            }
            out.append('\n');
        }
        return out.toString();
    }
}
