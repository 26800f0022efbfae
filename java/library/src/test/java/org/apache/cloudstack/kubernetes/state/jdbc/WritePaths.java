// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.cloudstack.kubernetes.state.NativeCallCounts;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;

/**
 * One write on each of the library's write paths, with the native calls it made (test-hooks
 * build): the guarded entry, its completion, upstream's updateState, a write the host built itself,
 * the fenced removal of a never-started cluster, and a scanner recovery pass of one and of four orphans (whose calls must not grow with them).
 * {@code JniCallsPerWriteTest} asserts them; {@code CallsPerWriteBenchmark} prints them.
 */
final class WritePaths {
    static final Owner WORKER = new Owner(1, 1, 100);
    static final Owner SCANNER = Owner.of(9, 1);

    private WritePaths() {
    }

    /** Each path's native calls by method, in the order above; every write is checked to hit. */
    static Map<String, Map<String, Long>> calls(Databases.Db db, StateMode mode) throws Exception {
        Map<String, Map<String, Long>> paths = new LinkedHashMap<>();
        Fixtures f = ModeFixtures.reset(db, mode);
        KubernetesClusterStateDao<State, Event> dao = f.dao(mode);
        ClusterOperationGuard<State, Event> guard = new ClusterOperationGuard<>(dao, WORKER);
        long id = f.cluster(State.Running);
        AtomicReference<OperationEntry<State, Event>> entry = new AtomicReference<>();
        paths.put("guarded entry", NativeCallCounts.of(() -> entry.set(guard.transitToOperationState(id,
                Operation.UPGRADE))));
        expect(entry.get().kind() == OperationEntry.Kind.ENTERED, "the entry entered");
        paths.put("completion", NativeCallCounts.of(() -> expect(guard.complete(id, entry.get(), Outcome.SUCCEEDED),
                "the completion hit")));
        paths.put("updateState", NativeCallCounts.of(() -> expect(dao.updateState(id, State.Running,
                Event.StopRequested), "updateState hit")));
        if (mode == StateMode.COMPAT) {
            paths.put("apply(StateUpdate), host-built", NativeCallCounts.of(() -> expect(dao.apply(id,
                    new StateUpdate<>(State.Stopping, Event.OperationSucceeded, State.Stopped)), "apply hit")));
        }
        if (mode == StateMode.FENCED) {
            paths.put("removal of a never-started cluster", removal(db));
        }
        paths.put("scanner recovery, 1 orphan", recovery(db, mode, 1));
        paths.put("scanner recovery, 4 orphans", recovery(db, mode, 4));
        return paths;
    }

    /** A destroy entered on a Created cluster, then its record removed (fenced: the core's release). */
    private static Map<String, Long> removal(Databases.Db db) throws Exception {
        Fixtures f = ModeFixtures.reset(db, StateMode.FENCED);
        ClusterOperationGuard<State, Event> guard = new ClusterOperationGuard<>(f.dao(StateMode.FENCED), WORKER);
        long id = f.cluster(State.Created);
        OperationEntry<State, Event> destroy = guard.transitToOperationState(id, Operation.DESTROY);
        return NativeCallCounts.of(() -> expect(guard.removeNeverStarted(id, destroy), "the record was removed"));
    }

    /** A pass over a clean database with {@code orphans} clusters left in Scaling by no one. */
    private static Map<String, Long> recovery(Databases.Db db, StateMode mode, int orphans) throws Exception {
        Fixtures f = ModeFixtures.reset(db, mode);
        for (int i = 0; i < orphans; i++) {
            f.cluster(State.Scaling);
        }
        ClusterStateScanner<State, Event> scanner = f.scanner(mode, SCANNER);
        return NativeCallCounts.of(() -> expect(scanner.recoverOrphanedOperationStates().recoveredIds().size()
                == orphans, "the pass recovered every orphan"));
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("expected: " + what);
        }
    }
}
