// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On a Galera cluster two compare-and-sets on two nodes both report one row, and the loser learns
 * it only at COMMIT: a certification failure, MySQL error 1213 (SQLState 40001). That is a lost
 * race: the write reports a miss, the row and the history stay as they were, and the operation is
 * never counted as entered.
 */
class CommitCertificationFailureTest {
    static java.util.stream.Stream<Databases.Db> perDatabase() {
        return Databases.perDatabase();
    }

    /** Connections whose commit fails as Galera's certification does (and rolls back). */
    private static ConnectionSource failingCommits(Databases.Db db, AtomicInteger commits) {
        return () -> {
            Connection real = db.connect();
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("commit")) {
                            commits.incrementAndGet();
                            real.rollback();
                            throw new SQLException("Deadlock found when trying to get lock; try restarting transaction",
                                    "40001", 1213);
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("perDatabase")
    void aCertificationFailureAtCommitIsALostRace(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        AtomicInteger commits = new AtomicInteger();
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(Fixtures.MACHINE,
                failingCommits(db, commits));
        assertFalse(dao.updateState(id, State.Running, Event.StopRequested), "a miss, no exception");
        OperationEntry<State, Event> entry = new ClusterOperationGuard<>(dao).transitToOperationState(id,
                Operation.UPGRADE, State.Running);
        assertEquals(OperationEntry.Kind.LOST_RACE, entry.kind(), entry.toString());
        assertEquals(2, commits.get(), "both writes reached COMMIT");
        assertEquals(State.Running, f.state(id));
        try (Connection c = db.connect(); Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM cks_state_history")) {
            rs.next();
            assertEquals(0, rs.getLong(1), "no history row of a write that did not commit");
        }
    }
}
