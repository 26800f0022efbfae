// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The memory store and the database apply the same compare-and-set: every operation from every state,
 * then its completion (or a removal), with and without another writer between the two, gives the same
 * entry, the same hits and misses and the same rows in both.
 */
class StoresAgreeTest {
    private static final Owner WORKER = new Owner(7, 3, 70);

    static Stream<Arguments> dbs() {
        return ModeFixtures.allDbsAndModes();
    }

    /** What one store did: entry kinds, hits, and each row after each step. */
    private static final class Trace {
        final List<String> steps = new ArrayList<>();

        void add(String step, Object result, ClusterRow<State> row, boolean removed) {
            steps.add(step + " -> " + result + " | " + (row == null ? "-" : row.state() + "/" + row.version() + "/"
                    + row.owner()) + (removed ? " removed" : ""));
        }
    }

    private interface Rows {
        long add(State state) throws SQLException;

        void setState(long id, State state) throws SQLException;

        ClusterRow<State> row(long id) throws SQLException;

        boolean removed(long id) throws SQLException;
    }

    /** What another writer does between an operation's entry and its end. */
    private enum Interference {
        NONE,
        /** moves the cluster to Alert */
        MOVED,
        /** moves it to Alert and back: the same state, another version (fenced) */
        ROUND_TRIP
    }

    private static Trace run(ClusterOperationGuard<State, Event> guard, Rows rows, Interference interfere) throws SQLException {
        Trace t = new Trace();
        for (Operation op : Operation.values()) {
            for (State from : State.values()) {
                for (Outcome outcome : List.of(Outcome.SUCCEEDED, Outcome.FAILED)) {
                    long id = rows.add(from);
                    OperationEntry<State, Event> entry = guard.transitToOperationState(id, op, from);
                    String name = op + " from " + from + " " + outcome + " " + interfere;
                    t.add(name + " entry", entry.kind(), rows.row(id), rows.removed(id));
                    State entered = rows.row(id).state();
                    if (interfere != Interference.NONE) {
                        rows.setState(id, entered == State.Alert ? State.Error : State.Alert);
                    }
                    if (interfere == Interference.ROUND_TRIP) {
                        rows.setState(id, entered);
                    }
                    Object end = op == Operation.DESTROY && outcome == Outcome.SUCCEEDED
                            && guard.removeNeverStarted(id, entry) ? "removed" : guard.complete(id, entry, outcome);
                    t.add(name + " end", end, rows.row(id), rows.removed(id));
                }
            }
        }
        return t;
    }

    @ParameterizedTest(name = "{0} {1}: the memory store writes what the database writes")
    @MethodSource("dbs")
    void theMemoryStoreWritesWhatTheDatabaseWrites(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(Fixtures.MACHINE.withMode(mode), db.source());
        InMemoryClusterStates<State, Event> memory = new InMemoryClusterStates<>(Fixtures.MACHINE.withMode(mode));
        Rows database = new Rows() {
            public long add(State s) throws SQLException {
                return f.cluster(s);
            }

            public void setState(long id, State s) throws SQLException {
                f.setState(id, s);
            }

            public ClusterRow<State> row(long id) throws SQLException {
                return dao.findRow(id) != null ? dao.findRow(id) : memoryLike(f, id, mode);
            }

            public boolean removed(long id) throws SQLException {
                return f.queryString("SELECT removed FROM kubernetes_cluster WHERE id = " + id) != null;
            }
        };
        Rows inMemory = new Rows() {
            public long add(State s) {
                return memory.add(s);
            }

            public void setState(long id, State s) {
                memory.setState(id, s);
            }

            public ClusterRow<State> row(long id) {
                return memory.row(id);
            }

            public boolean removed(long id) {
                return memory.removed(id);
            }
        };
        for (Interference interfere : Interference.values()) {
            List<String> expected = run(new ClusterOperationGuard<>(dao, WORKER), database, interfere).steps;
            List<String> actual = run(new ClusterOperationGuard<>(memory, WORKER), inMemory, interfere).steps;
            assertEquals(expected.size(), actual.size());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), actual.get(i), "step " + i);
            }
        }
    }

    /** A removed row as the memory store keeps it: its state, and fenced its version, owner cleared. */
    private static ClusterRow<State> memoryLike(Fixtures f, long id, StateMode mode) throws SQLException {
        State state = f.state(id);
        if (mode != StateMode.FENCED) {
            return ClusterRow.of(state);
        }
        String version = f.queryString("SELECT state_version FROM kubernetes_cluster WHERE id = " + id);
        String owner = f.queryString("SELECT op_owner_msid FROM kubernetes_cluster WHERE id = " + id);
        if (owner != null) {
            throw new AssertionError("a removed row kept its owner: " + owner);
        }
        return ClusterRow.of(state, Long.parseLong(version.strip()), null);
    }
}
