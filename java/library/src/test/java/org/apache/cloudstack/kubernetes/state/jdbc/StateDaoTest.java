// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** KubernetesClusterStateDao on H2 and MariaDB, both rows modes, both isolation levels. */
class StateDaoTest {

    static java.util.stream.Stream<Databases.Db> dbs() {
        return Databases.all();
    }

    @ParameterizedTest(name = "{0} update is restricted to the current state and false when no row changed")
    @MethodSource("dbs")
    void updateIsRestrictedToTheCurrentState(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        long other = f.cluster(State.Running);
        StatementCounter counter = new StatementCounter(db.source());
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(Fixtures.MACHINE, counter);

        assertTrue(dao.updateState(id, State.Running, Event.StopRequested));
        assertEquals(State.Stopping, f.state(id));
        assertEquals(List.of(KubernetesClusterStateDao.CAS_SQL), counter.statements(), "exactly one UPDATE");

        // The same compare-and-set again: the row is no longer in Running, nothing changes.
        assertFalse(dao.updateState(id, State.Running, Event.StopRequested));
        assertEquals(State.Stopping, f.state(id));
        // A valid transition from a state the cluster is not in.
        assertFalse(dao.updateState(id, State.Stopped, Event.StartRequested));
        assertEquals(State.Stopping, f.state(id));
        assertEquals(State.Running, f.state(other), "only the row with this id");

        assertTrue(dao.updateState(id, State.Stopping, Event.OperationSucceeded));
        assertEquals(State.Stopped, f.state(id));
        assertEquals(4, counter.count());
    }

    @ParameterizedTest(name = "{0} no transition: false without any SQL")
    @MethodSource("dbs")
    void noTransitionWritesNothing(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        StatementCounter counter = new StatementCounter(db.source());
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(Fixtures.MACHINE, counter);

        assertFalse(dao.updateState(id, State.Running, Event.StartRequested));
        assertFalse(dao.updateState(id, State.Destroyed, Event.StartRequested));
        assertFalse(dao.apply(id, new StateUpdate<>(State.Running, Event.StopRequested, State.Stopped)),
                "an update whose target is not the table's");
        assertEquals(0, counter.count());
        assertEquals(State.Running, f.state(id));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> dao.updateState(id, null, Event.StopRequested));
        assertEquals("expected is null", e.getMessage());
    }

    @ParameterizedTest(name = "{0} removed or missing cluster is never written")
    @MethodSource("dbs")
    void removedClusterIsNeverWritten(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        f.remove(id);
        KubernetesClusterStateDao<State, Event> dao = f.dao();
        assertFalse(dao.updateState(id, State.Running, Event.StopRequested));
        assertEquals(State.Running, f.state(id));
        assertNull(dao.findState(id));
        assertFalse(dao.updateState(id + 1000, State.Running, Event.StopRequested));
    }

    @ParameterizedTest(name = "{0} driver rows mode is real and the answer does not depend on it")
    @MethodSource("dbs")
    void rowsModeDoesNotChangeTheAnswer(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Alert);
        // Show which mode the connection really is in: a same-value UPDATE reports 1 found row but
        // 0 affected rows on MariaDB (H2 always reports the rows found).
        int sameValue;
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            sameValue = st.executeUpdate("UPDATE kubernetes_cluster SET state = state WHERE id = " + id);
        }
        int expected = db.isMariaDb() && db.rows == Databases.RowsMode.AFFECTED_ROWS ? 0 : 1;
        assertEquals(expected, sameValue, "driver mode of " + db);

        KubernetesClusterStateDao<State, Event> dao = f.dao();
        assertTrue(dao.updateState(id, State.Alert, Event.RecoveryRequested));
        assertFalse(dao.updateState(id, State.Alert, Event.RecoveryRequested));
        assertTrue(dao.updateState(id, State.Recovering, Event.OperationSucceeded));
        assertEquals(State.Running, f.state(id));
    }

    @ParameterizedTest(name = "{0} a lock wait timeout is a lost race: false, no exception")
    @MethodSource("dbs")
    void lockWaitTimeoutIsALostRace(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        ConnectionSource impatient = () -> {
            Connection c = db.connect();
            try (Statement st = c.createStatement()) {
                st.execute(db.isMariaDb() ? "SET SESSION innodb_lock_wait_timeout = 1" : "SET LOCK_TIMEOUT 300");
            }
            return c;
        };
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(Fixtures.MACHINE, impatient);
        try (Connection holder = db.connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement ps = holder.prepareStatement(
                    "UPDATE kubernetes_cluster SET state = 'Upgrading' WHERE id = ?")) {
                ps.setLong(1, id);
                assertEquals(1, ps.executeUpdate());
            }
            assertFalse(dao.updateState(id, State.Running, Event.StopRequested), "lost the race to the lock holder");
            holder.rollback();
        }
        assertEquals(State.Running, f.state(id));
        assertTrue(dao.updateState(id, State.Running, Event.StopRequested));
    }

    static java.util.stream.Stream<Databases.Db> perDatabase() {
        return Databases.perDatabase();
    }

    @ParameterizedTest(name = "{0} works through a pooled DataSource (ConnectionSource.of)")
    @MethodSource("perDatabase")
    void worksThroughADataSource(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Stopped);
        javax.sql.DataSource ds;
        if (db.isConnectorJ()) {
            com.mysql.cj.jdbc.MysqlDataSource mysql = new com.mysql.cj.jdbc.MysqlDataSource();
            mysql.setURL(db.url());
            ds = mysql;
        } else if (db.isMariaDb()) {
            ds = new org.mariadb.jdbc.MariaDbDataSource(db.url());
        } else {
            org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
            h2.setURL(db.url());
            ds = h2;
        }
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(Fixtures.MACHINE,
                ConnectionSource.of(ds));
        assertEquals(State.Stopped, dao.findState(id));
        assertTrue(dao.updateState(id, State.Stopped, Event.DestroyRequested));
        assertEquals(State.Destroying, dao.findState(id));
    }

    @ParameterizedTest(name = "{0} other SQL failures throw StateStoreException")
    @MethodSource("dbs")
    void otherFailuresThrow(Databases.Db db) throws SQLException {
        db.reset();
        ConnectionSource broken = () -> {
            throw new SQLException("Communications link failure", "08S01");
        };
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(Fixtures.MACHINE, broken);
        StateStoreException e = assertThrows(StateStoreException.class,
                () -> dao.updateState(1, State.Running, Event.StopRequested));
        assertEquals("08S01", e.sqlException().getSQLState());
    }

    @ParameterizedTest(name = "{0} an UPDATE that fails (its history trigger) throws and changes nothing")
    @MethodSource("dbs")
    void aFailingUpdateThrowsAndChangesNothing(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        // The test kit's history trigger inserts in the UPDATE's statement: a row too long for it fails the UPDATE.
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE cks_state_history MODIFY `to_state` char(3) NOT NULL");
        }
        try {
            KubernetesClusterStateDao<State, Event> dao = f.dao();
            assertThrows(StateStoreException.class, () -> dao.updateState(id, State.Running, Event.StopRequested));
            assertEquals(State.Running, f.state(id), "the UPDATE failed with its trigger's insert");
        } finally {
            try (Connection c = db.connect(); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE cks_state_history MODIFY `to_state` char(32) NOT NULL");
            }
        }
    }
}
