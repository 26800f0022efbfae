// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both stores apply only writes of the core's shape for their mode (its one rule, asked through
 * {@code ClusterStateMachine.shapeError}): any other is refused before any SQL, and the row stays.
 */
class WriteShapeTest {
    private static final Owner ME = new Owner(1, 2, 3);

    static Stream<Arguments> cases() {
        return ModeFixtures.dbsAndModes();
    }

    /** Writes from a new Running cluster (fenced: version 0), each with the core's reason it breaks the mode's shape. */
    private static Map<StateWrite<State, Event>, String> misshapen(StateMode mode) {
        Map<StateWrite<State, Event>, String> out = new LinkedHashMap<>();
        if (mode == StateMode.COMPAT) {
            out.put(new StateWrite<>(Token.of(State.Running), Token.of(State.Stopping), Event.StopRequested, ME),
                    "a compat write stores no owner");
            out.put(new StateWrite<>(Token.of(State.Running), Token.of(State.Running), Event.OperationSucceeded, null),
                    "a compat write moves the state");
            out.put(new StateWrite<>(new Token<>(State.Running, 0), new Token<>(State.Stopping, 1), Event.StopRequested,
                    null), "a compat write compares and stores no version");
            out.put(new StateWrite<>(new Token<>(State.Running, 0), new Token<>(State.Stopping, 0), Event.StopRequested,
                    null), "a compat write compares and stores no version");
            out.put(new StateWrite<>(Token.of(State.Running), Token.of(State.Stopped), Event.StopRequested, null),
                    "a state change is a row of the table");
        } else {
            out.put(new StateWrite<>(new Token<>(State.Running, 0), new Token<>(State.Stopping, 2), Event.StopRequested,
                    ME), "a fenced write bumps the version by one, up to MAX_VERSION");
            out.put(StateWrite.of(new StateUpdate<>(State.Running, Event.StopRequested, State.Stopping)), "a fenced write bumps the version by one, up to MAX_VERSION");
            out.put(new StateWrite<>(new Token<>(State.Running, 0), new Token<>(State.Stopped, 1), null, ME),
                    "a write without an event keeps the state");
            out.put(new StateWrite<>(new Token<>(State.Running, 0), new Token<>(State.Stopped, 1), Event.StopRequested,
                    ME), "a state change is a row of the table");
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1}: a write of another shape is refused without SQL")
    @MethodSource("cases")
    void misshapenWritesAreRefused(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Running);
        StatementCounter counter = new StatementCounter(db.source());
        ClusterStateMachine<State, Event> machine = Fixtures.MACHINE.withMode(mode);
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(machine, counter);
        InMemoryClusterStates<State, Event> memory = new InMemoryClusterStates<>(machine);
        long inMemory = memory.add(State.Running);
        ClusterRow<State> before = memory.row(inMemory);
        for (Map.Entry<StateWrite<State, Event>, String> w : misshapen(mode).entrySet()) {
            assertEquals(w.getValue(), machine.shapeError(w.getKey()), w.getKey().toString());
            assertFalse(dao.apply(id, w.getKey()), w.getKey().toString());
            assertFalse(memory.apply(inMemory, w.getKey()), w.getKey().toString());
        }
        // A removal's release: compat releases nothing; fenced, a release from the token that keeps the state.
        Token<State> at = mode == StateMode.FENCED ? new Token<>(State.Running, 0) : Token.of(State.Running);
        StateWrite<State, Event> wrongRelease = mode == StateMode.FENCED ? null : new StateWrite<>(at, at, null, null);
        assertFalse(dao.removeAt(id, at, wrongRelease));
        assertFalse(memory.removeAt(inMemory, at, wrongRelease));
        if (mode == StateMode.FENCED) {
            StateWrite<State, Event> moves = new StateWrite<>(at, new Token<>(State.Stopped, 1), null, null);
            assertFalse(dao.removeAt(id, at, moves), "a release keeps the state");
            StateWrite<State, Event> otherToken = new StateWrite<>(new Token<>(State.Running, 7),
                    new Token<>(State.Running, 8), null, null);
            assertFalse(dao.removeAt(id, at, otherToken), "a release from another token");
        }
        assertEquals(0, counter.count(), "refused before any SQL");
        assertEquals(State.Running, f.state(id));
        assertEquals(before, memory.row(inMemory));
    }

    @Test
    void theCoresOwnWritesHaveTheShape() {
        for (StateMode mode : StateMode.values()) {
            ClusterStateMachine<State, Event> machine = Fixtures.MACHINE.withMode(mode);
            ClusterRow<State> running = mode == StateMode.FENCED ? ClusterRow.of(State.Running, 4, null)
                    : ClusterRow.of(State.Running);
            StateWrite<State, Event> stop = machine.entry(Operation.STOP, running, ME).write();
            // Asked as the host's own copy: the core's rule, not the mark, answers.
            StateWrite<State, Event> copy = new StateWrite<>(stop.expected(), stop.target(), stop.event(), stop.owner());
            assertNull(machine.shapeError(copy), mode + " " + copy);
        }
    }

    @Test
    void aWriteCarriesAVersionInBothTokensOrNeither() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new StateWrite<>(Token.of(State.Running), new Token<>(State.Stopping, 1), Event.StopRequested, null));
        assertTrue(e.getMessage().contains("both tokens carry a version (fenced) or neither (compat)"), e.getMessage());
        assertEquals("write is null", assertThrows(IllegalArgumentException.class,
                () -> Fixtures.MACHINE.shapeError(null)).getMessage());
    }
}
