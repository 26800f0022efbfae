// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Watches the operations inside each cluster. Invariants: no two transitioning operations inside
 * one cluster at once. Known windows of the upstream design are counted, not hidden: a live
 * operation failed by the scanner, a late (zombie) completion of such an operation that still
 * hits, operations that go ahead without a state change alongside another, and a stop taking a
 * Starting cluster over from its live start (compat), after which that start runs on beside
 * whatever enters the cluster next, and an operation whose state a zombie completion left
 * (compat), which likewise runs on beside the next one.
 */
final class InvariantMonitor {
    final AtomicInteger doubleEntries = new AtomicInteger();
    final AtomicInteger concurrentProceeds = new AtomicInteger();
    final AtomicInteger liveOperationsFailed = new AtomicInteger();
    final AtomicInteger zombieCompletions = new AtomicInteger();
    final AtomicInteger stopTakeovers = new AtomicInteger();
    final AtomicInteger overrunByZombies = new AtomicInteger();
    private final Map<Long, ClusterTracker> trackers = new ConcurrentHashMap<>();
    /** Told of every double entry, with both operations: a broken invariant explains itself. */
    private final Consumer<String> told;

    InvariantMonitor() {
        this(line -> { });
    }

    InvariantMonitor(Consumer<String> told) {
        this.told = told;
    }

    ClusterTracker tracker(long clusterId) {
        return trackers.computeIfAbsent(clusterId, ClusterTracker::new);
    }

    /** Called with the tracker locked, right after the operation got in. */
    void entered(ClusterTracker tracker, ActiveOperation op) {
        for (ActiveOperation other : tracker.active) {
            if (other.failedByScanner || other.takenOver || other.overrunByZombie) {
                continue; // already counted as a live operation failed, a stop's takeover, or overrun
            }
            if (op.entered && other.entered) {
                boolean takeover = "Starting".equals(other.movedTo) && op.script.kind() == SimOperation.STOP;
                (takeover ? stopTakeovers : doubleEntries).incrementAndGet();
                if (takeover) {
                    other.takenOver = true;
                } else {
                    told.accept("[simulate] double entry in cluster " + tracker.clusterId + ": " + op + " beside "
                            + other);
                }
            } else {
                concurrentProceeds.incrementAndGet();
            }
        }
        tracker.active.add(op);
    }

    /** Called with the tracker locked, right after the operation's completion. */
    void exited(ClusterTracker tracker, ActiveOperation op, boolean completionHit) {
        tracker.active.remove(op);
        if (completionHit && op.entered && (op.failedByScanner || op.takenOver || op.overrunByZombie)) {
            zombieCompletions.incrementAndGet();
            // Its compare-and-set landed on the state an operation still inside had moved the
            // cluster to: that operation runs on unaware, and what enters next beside it is this
            // window's consequence, not a double entry.
            for (ActiveOperation other : tracker.active) {
                if (other.entered && !other.failedByScanner && !other.takenOver && !other.overrunByZombie) {
                    other.overrunByZombie = true;
                    overrunByZombies.incrementAndGet();
                }
            }
        }
    }

    /** Called with the tracker locked, right after the scanner's compare-and-set. */
    void scannerRecovered(ClusterTracker tracker) {
        for (ActiveOperation op : tracker.active) {
            if (op.entered && !op.failedByScanner) {
                op.failedByScanner = true;
                liveOperationsFailed.incrementAndGet();
            }
        }
    }

    /** A server run ended: its operations are gone, whatever state they left. */
    void crashed(int server, long runid) {
        for (ClusterTracker tracker : trackers.values()) {
            tracker.lock.lock();
            try {
                tracker.active.removeIf(op -> op.server == server && op.runid == runid);
            } finally {
                tracker.lock.unlock();
            }
        }
    }
}
