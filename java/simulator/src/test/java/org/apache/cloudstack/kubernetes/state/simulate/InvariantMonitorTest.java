// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The monitor's judgement of operations inside one cluster, as DatabaseRestartSimulationTest once
 * caught it wrong: a stop took a Starting cluster over from its live start (compat), stopped it,
 * and a scale then entered beside that start; and SimulateNeverHangsTest under load: a scale the
 * scanner failed completed late onto the Scaling a second scale had written, and a remove-nodes
 * then entered beside that second scale.
 */
class InvariantMonitorTest {
    private static ActiveOperation entered(int index, SimOperation kind, String movedTo) {
        return new ActiveOperation(new ScriptedOperation(index, 0, 0, kind, 0, 1, false, false), 0, 1, true, movedTo);
    }

    @Test
    void anEntryBesideAStartAStopTookOverIsThatTakeoversNotADoubleEntry() {
        InvariantMonitor monitor = new InvariantMonitor();
        ClusterTracker tracker = monitor.tracker(9);
        ActiveOperation start = entered(152, SimOperation.START, "Starting");
        ActiveOperation stop = entered(160, SimOperation.STOP, "Stopping");
        tracker.lock.lock();
        try {
            monitor.entered(tracker, start);
            monitor.entered(tracker, stop);
            monitor.exited(tracker, stop, true);
            monitor.entered(tracker, entered(184, SimOperation.OFFERING_CHANGE, "ScalingStoppedCluster"));
        } finally {
            tracker.lock.unlock();
        }
        assertEquals(1, monitor.stopTakeovers.get());
        assertEquals(0, monitor.doubleEntries.get());
    }

    @Test
    void twoEntriesWithoutATakeoverAreADoubleEntry() {
        InvariantMonitor monitor = new InvariantMonitor();
        ClusterTracker tracker = monitor.tracker(9);
        tracker.lock.lock();
        try {
            monitor.entered(tracker, entered(1, SimOperation.START, "Starting"));
            monitor.entered(tracker, entered(2, SimOperation.OFFERING_CHANGE, "ScalingStoppedCluster"));
        } finally {
            tracker.lock.unlock();
        }
        assertEquals(1, monitor.doubleEntries.get());
        assertEquals(0, monitor.stopTakeovers.get());
    }

    @Test
    void anEntryBesideAnOperationAZombieCompletionOverranIsThatWindowsNotADoubleEntry() {
        InvariantMonitor monitor = new InvariantMonitor();
        ClusterTracker tracker = monitor.tracker(1);
        ActiveOperation failed = entered(39, SimOperation.SCALE_DOWN, "Scaling");
        ActiveOperation live = entered(40, SimOperation.AUTOSCALE, "Scaling");
        tracker.lock.lock();
        try {
            monitor.entered(tracker, failed);
            monitor.scannerRecovered(tracker);
            monitor.entered(tracker, live);
            monitor.exited(tracker, failed, true);
            monitor.entered(tracker, entered(46, SimOperation.REMOVE_NODES, "RemovingNodes"));
        } finally {
            tracker.lock.unlock();
        }
        assertEquals(1, monitor.liveOperationsFailed.get());
        assertEquals(1, monitor.zombieCompletions.get());
        assertEquals(1, monitor.overrunByZombies.get());
        assertEquals(0, monitor.doubleEntries.get());
    }

    @Test
    void aZombieCompletionThatMissedOverrunsNothing() {
        InvariantMonitor monitor = new InvariantMonitor();
        ClusterTracker tracker = monitor.tracker(1);
        ActiveOperation failed = entered(39, SimOperation.SCALE_DOWN, "Scaling");
        tracker.lock.lock();
        try {
            monitor.entered(tracker, failed);
            monitor.scannerRecovered(tracker);
            monitor.entered(tracker, entered(40, SimOperation.AUTOSCALE, "Scaling"));
            monitor.exited(tracker, failed, false);
            monitor.entered(tracker, entered(46, SimOperation.REMOVE_NODES, "RemovingNodes"));
        } finally {
            tracker.lock.unlock();
        }
        assertEquals(0, monitor.zombieCompletions.get());
        assertEquals(0, monitor.overrunByZombies.get());
        assertEquals(1, monitor.doubleEntries.get());
    }
}
