// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.NativeCallCounts;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One native ask per write: a write the core decided crosses JNI once, in the call that decided it,
 * and is not checked again; a write the host built is checked in one call; a scanner pass asks once
 * whatever the number of clusters it writes.
 */
@Tag("test-hooks")
class JniCallsPerWriteTest {
    private static final Databases.Db H2 = Databases.perDatabase().findFirst().orElseThrow();

    @ParameterizedTest(name = "{0}: one native call per write on every path")
    @EnumSource(StateMode.class)
    void oneNativeCallPerWrite(StateMode mode) throws Exception {
        Map<String, Map<String, Long>> calls = WritePaths.calls(H2, mode);
        assertEquals(Map.of("entry", 1L), calls.get("guarded entry"));
        assertEquals(Map.of("completion", 1L), calls.get("completion"));
        assertEquals(Map.of("upstreamWrite", 1L), calls.get("updateState"));
        if (mode == StateMode.COMPAT) {
            assertEquals(Map.of("writeShapeError", 1L), calls.get("apply(StateUpdate), host-built"));
        }
        if (mode == StateMode.FENCED) {
            assertEquals(Map.of("completion", 1L), calls.get("removal of a never-started cluster"));
        }
        assertEquals(Map.of("planRecovery", 1L), calls.get("scanner recovery, 1 orphan"));
        assertEquals(calls.get("scanner recovery, 1 orphan"), calls.get("scanner recovery, 4 orphans"),
                "a pass's native calls do not grow with the clusters it writes");
    }

    /**
     * The mark is no pass: a write the core decided in compat mode, given to a fenced store, and one
     * decided by another binding, are each asked of the core once, and refused or applied by its answer.
     */
    @ParameterizedTest(name = "{0}: a write decided elsewhere is asked again, once")
    @EnumSource(StateMode.class)
    void aWriteDecidedElsewhereIsChecked(StateMode mode) throws Exception {
        Fixtures f = ModeFixtures.reset(H2, StateMode.FENCED);
        long id = f.cluster(State.Running);
        ClusterStateMachine<State, Event> compat = Fixtures.MACHINE.withMode(StateMode.COMPAT);
        StateWrite<State, Event> compatStop = compat.entry(Operation.STOP, ClusterRow.of(State.Running), null).write();
        KubernetesClusterStateDao<State, Event> fenced = f.dao(StateMode.FENCED);
        boolean[] hit = new boolean[1];
        assertEquals(Map.of("writeShapeError", 1L), NativeCallCounts.of(() -> hit[0] = fenced.apply(id, compatStop)));
        assertFalse(hit[0], "a compat write in fenced mode");
        // Another binding of the same enums decides the same write: its mark is not this machine's.
        ClusterStateMachine<State, Event> other = ClusterStateMachine.bind(State.class, Event.class, Fixtures.MACHINE.profile(), mode);
        ClusterRow<State> row = mode == StateMode.FENCED ? f.dao(mode).findRow(id) : ClusterRow.of(State.Running);
        StateWrite<State, Event> stop = other.entry(Operation.STOP, row, WritePaths.WORKER).write();
        assertEquals(Map.of("writeShapeError", 1L), NativeCallCounts.of(() -> hit[0] = f.dao(mode).apply(id, stop)));
        assertTrue(hit[0], "the other binding's write has the shape and hits");
    }
}
