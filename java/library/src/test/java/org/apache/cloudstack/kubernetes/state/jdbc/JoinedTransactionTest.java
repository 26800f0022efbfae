// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The DAO's joined forms, inside the caller's own transaction (CloudStack's
 * {@code TransactionLegacy.currentTxn()}): a row the caller already locked is written at once, the
 * caller's rollback or commit decides, a miss leaves the transaction usable, the connection's
 * settings and life are the caller's, and a lost race is thrown with {@code isLostRace()}.
 */
class JoinedTransactionTest {
    private static final Owner OWNER = new Owner(7001, 11, 42);
    /** What the library must never do to the caller's connection. */
    private static final Set<String> FORBIDDEN = Set.of("commit", "rollback", "setAutoCommit",
            "setTransactionIsolation", "close", "setSavepoint", "releaseSavepoint", "abort");

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> cases() {
        return ModeFixtures.allDbsAndModes();
    }

    private static KubernetesClusterStateDao<State, Event> dao(Databases.Db db, StateMode mode) {
        return new Fixtures(db).dao(mode);
    }

    /** The mode's own write from Running by STOP (fenced: by the token read in the caller's transaction). */
    private static boolean stop(KubernetesClusterStateDao<State, Event> dao, Connection c, long id) {
        if (dao.mode() == StateMode.COMPAT) {
            return dao.updateState(c, id, State.Running, Event.StopRequested);
        }
        ClusterRow<State> row = dao.findRow(c, id);
        EntryDecision<State, Event> entry = dao.machine().entry(Operation.STOP, row, OWNER);
        StateWrite<State, Event> write = entry.write();
        assertNotNull(write, entry.toString());
        return dao.apply(c, id, write);
    }

    private static long historyRows(Databases.Db db, long id) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM cks_state_history WHERE cluster_id = " + id)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void rename(Connection c, long id, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE kubernetes_cluster SET name = ? WHERE id = ?")) {
            ps.setString(1, name);
            ps.setLong(2, id);
            assertEquals(1, ps.executeUpdate());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void theCallersLockedRowIsWrittenAtOnceAndItsCommitOrRollbackDecides(Databases.Db db, StateMode mode)
            throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Running);
        KubernetesClusterStateDao<State, Event> dao = dao(db, mode);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            rename(c, id, "renamed-in-the-callers-transaction"); // the caller's transaction holds the row's lock
            assertTrue(stop(dao, c, id));
            assertEquals(State.Stopping, dao.findState(c, id), "the caller's transaction sees its own write");
            assertEquals(State.Running, f.state(id), "not committed yet");
            c.rollback();
            assertEquals(State.Running, f.state(id), "rolled back with the caller's transaction");
            assertEquals(0, historyRows(db, id), "the history row too");

            rename(c, id, "renamed-again");
            assertTrue(stop(dao, c, id));
            c.commit();
        }
        assertEquals(State.Stopping, f.state(id));
        assertEquals(1, historyRows(db, id), "written in the same transaction");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aMissLeavesTheCallersTransactionUsable(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Stopped);
        KubernetesClusterStateDao<State, Event> dao = dao(db, mode);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            rename(c, id, "before-the-miss");
            assertFalse(dao.updateState(c, id, State.Running, Event.StopRequested), "the row is Stopped: a miss");
            if (mode == StateMode.FENCED) {
                ClusterRow<State> stale = ClusterRow.of(State.Stopped, 99, null);
                StateWrite<State, Event> write = dao.machine().entry(Operation.START, stale, OWNER).write();
                assertFalse(dao.apply(c, id, write), "a stale version: a miss");
            }
            rename(c, id, "after-the-miss");
            c.commit();
        }
        assertEquals(State.Stopped, f.state(id));
        try (Connection c = db.connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name FROM kubernetes_cluster WHERE id = " + id)) {
            rs.next();
            assertEquals("after-the-miss", rs.getString(1), "the caller's own writes went through");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void theConnectionIsTheCallersToCommitCloseAndConfigure(Databases.Db db, StateMode mode) throws Exception {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Running);
        KubernetesClusterStateDao<State, Event> dao = dao(db, mode);
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        try (Connection real = db.connect()) {
            real.setAutoCommit(false);
            Connection recorded = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        calls.add(method.getName());
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            assertEquals(State.Running, dao.findState(recorded, id));
            assertNotNull(dao.findRow(recorded, id));
            assertTrue(stop(dao, recorded, id));
            assertFalse(dao.updateState(recorded, id, State.Running, Event.StopRequested), "moved on: a miss");
            assertTrue(calls.contains("prepareStatement"), calls.toString());
            List<String> forbidden = calls.stream().filter(FORBIDDEN::contains).toList();
            assertEquals(List.of(), forbidden, "the library touched the caller's transaction: " + calls);
            assertFalse(real.getAutoCommit());
            real.commit();
        }
        assertEquals(State.Stopping, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aLostRaceIsThrownAsOne(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Running);
        KubernetesClusterStateDao<State, Event> dao = dao(db, mode);
        try (Connection other = db.connect(); Connection c = db.connect()) {
            other.setAutoCommit(false);
            rename(other, id, "held-by-another-transaction");
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                // A short lock wait on the caller's connection: its setting, not the library's.
                st.execute(db.isMariaDb() ? "SET SESSION innodb_lock_wait_timeout = 1" : "SET LOCK_TIMEOUT 300");
            }
            StateStoreException e = assertThrows(StateStoreException.class, () -> dao.updateState(c, id, State.Running,
                    Event.StopRequested));
            assertTrue(e.isLostRace(), e.getMessage());
            c.rollback();
            other.rollback();
        }
        assertEquals(State.Running, f.state(id), "nothing written");
        assertEquals(0, historyRows(db, id));
    }
}
