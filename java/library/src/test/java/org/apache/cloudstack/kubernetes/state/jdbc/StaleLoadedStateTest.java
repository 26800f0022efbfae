// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code transitToOperationState(id, operation, loadedState)} on a stale loaded state: a decision
 * that writes nothing (proceed, nothing to do, refuse) is confirmed against the row, so a cluster
 * in another state answers LOST_RACE in both modes and nothing is written; on a state that is
 * right, the decision stands. Every operation, every state whose decision writes nothing.
 */
class StaleLoadedStateTest {
    private static final Owner OWNER = new Owner(7001, 11, 42);

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> cases() {
        return ModeFixtures.dbsAndModes();
    }

    /** (operation, believed state) pairs whose decision in {@code mode} writes nothing. */
    private static List<Object[]> silentDecisions(StateMode mode) {
        List<Object[]> out = new ArrayList<>();
        for (Operation op : Operation.values()) {
            for (State believed : State.values()) {
                ClusterRow<State> row = mode == StateMode.FENCED ? ClusterRow.of(believed, 0, null) : ClusterRow.of(believed);
                EntryDecision<State, Event> d = Fixtures.MACHINE.withMode(mode).entry(op, row, OWNER);
                if (d.write() == null) {
                    out.add(new Object[] {op, believed, d.kind()});
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aStaleStateThatWritesNothingLosesTheRace(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        ClusterOperationGuard<State, Event> guard = f.guard(mode, OWNER);
        List<Object[]> silent = silentDecisions(mode);
        assertTrue(silent.size() >= 20, "enough decisions that write nothing: " + silent.size());
        java.util.Set<Operation> covered = java.util.EnumSet.noneOf(Operation.class);
        for (Object[] c : silent) {
            Operation op = (Operation) c[0];
            State believed = (State) c[1];
            covered.add(op);
            State actual = believed == State.Running ? State.Stopped : State.Running;
            long id = f.cluster(actual);
            OperationEntry<State, Event> stale = guard.transitToOperationState(id, op, believed);
            assertEquals(OperationEntry.Kind.LOST_RACE, stale.kind(), op + " believing " + believed + " on " + actual
                    + ": " + stale);
            assertTrue(stale.message().contains("please retry"), stale.message());
            assertEquals(actual, f.state(id), "nothing written");

            long right = f.cluster(believed);
            OperationEntry<State, Event> decided = guard.transitToOperationState(right, op, believed);
            EntryDecision.Kind kind = (EntryDecision.Kind) c[2];
            OperationEntry.Kind expected = switch (kind) {
                case PROCEED -> OperationEntry.Kind.PROCEEDED;
                case NOTHING_TO_DO -> OperationEntry.Kind.NOTHING_TO_DO;
                case REFUSE -> OperationEntry.Kind.REFUSED;
                default -> OperationEntry.Kind.LOST_RACE;
            };
            assertEquals(expected, decided.kind(), op + " on " + believed + ": " + decided);
            assertEquals(believed, f.state(right));
        }
        assertEquals(java.util.EnumSet.allOf(Operation.class), covered, "every operation has a decision that writes nothing");
    }
}
