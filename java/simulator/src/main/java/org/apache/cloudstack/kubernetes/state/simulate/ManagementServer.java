// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.SQLException;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A simulated management server. A crash is a real stop: it waits for the step in flight, and
 * from then on no step of the old run (runid) is ever executed, even after the restart.
 */
final class ManagementServer {
    /** Thrown at a worker's next step once its server run has ended. */
    static final class Crashed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crashed() {
            super("management server stopped", null, false, false);
        }
    }

    /** A unit of work that must run whole or not at all. */
    @FunctionalInterface
    interface Step<T> {
        T run() throws SQLException;
    }

    final int index;
    final long msid;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile long runid;
    private volatile boolean alive = true;

    ManagementServer(int index, long msid, long runid) {
        this.index = index;
        this.msid = msid;
        this.runid = runid;
    }

    long runid() {
        return runid;
    }

    boolean alive() {
        return alive;
    }

    /** Runs one step of the run {@code runid}, or throws {@link Crashed} if that run has ended. */
    <T> T step(long runid, Step<T> body) throws SQLException {
        lock.readLock().lock();
        try {
            check(runid);
            return body.run();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * {@link #step} under {@code inner} too (a cluster's tracker lock), always taken after this
     * server's lock: the scanner takes them in this order inside its pass, and a worker that took
     * them the other way round deadlocked with it once a crash() queued for the server's lock.
     */
    <T> T step(long runid, Lock inner, Step<T> body) throws SQLException {
        lock.readLock().lock();
        try {
            inner.lock();
            try {
                check(runid);
                return body.run();
            } finally {
                inner.unlock();
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    void check(long runid) {
        if (!alive || this.runid != runid) {
            throw new Crashed();
        }
    }

    /** Sleeps for an operation's work, noticing a crash within a few milliseconds. */
    void work(long runid, long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            check(runid);
            long left = end - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                Thread.sleep(Math.min(5, Math.max(1, left / 1_000_000L)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Crashed();
            }
        }
    }

    /** Stops the server after the step in flight; returns the run that ended. */
    long crash() {
        lock.writeLock().lock();
        try {
            alive = false;
            return runid;
        } finally {
            lock.writeLock().unlock();
        }
    }

    void restart(long newRunid) {
        lock.writeLock().lock();
        try {
            runid = newRunid;
            alive = true;
        } finally {
            lock.writeLock().unlock();
        }
    }
}
