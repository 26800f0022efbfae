// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.sql.SqlErrors;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Database faults under the compare-and-set, on MariaDB (both rows modes, both isolation levels):
 * the connection killed (server-side {@code KILL}) while the CAS waits on a row lock, the
 * statement killed ({@code KILL QUERY}), a lock wait timeout, and a deadlock. Each must give a
 * lost race ({@code false}) or a clear {@link StateStoreException}, never a wrong answer; the
 * database answers the next CAS; and the history check holds: every state change (the test kit's
 * {@code cks_state_history}) is a row of the table, and the cluster is in the state the last change put it in.
 */
class DatabaseFaultsTest {
    static Stream<Databases.Db> mariadb() {
        return Databases.all().filter(Databases.Db::isMariaDb);
    }

    /** Hands out the case's connections, remembering the server's id of the last one. */
    private static final class Tracked implements ConnectionSource {
        final Databases.Db db;
        final AtomicLong lastConnectionId = new AtomicLong(-1);
        final String sessionSql;

        Tracked(Databases.Db db, String sessionSql) {
            this.db = db;
            this.sessionSql = sessionSql;
        }

        @Override
        public Connection open() throws SQLException {
            Connection c = db.connect();
            try (Statement st = c.createStatement()) {
                if (sessionSql != null) {
                    st.execute(sessionSql);
                }
                try (ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
                    rs.next();
                    lastConnectionId.set(rs.getLong(1));
                }
            }
            return c;
        }
    }

    /** A transaction of a test that holds the row lock of a cluster. */
    private static Connection lockRow(Databases.Db db, long clusterId) throws SQLException {
        Connection c = db.connect();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("SELECT state FROM kubernetes_cluster WHERE id = ? FOR UPDATE")) {
            ps.setLong(1, clusterId);
            ps.executeQuery().close();
        }
        return c;
    }

    /** Waits until the server shows connection {@code id} waiting in an UPDATE (on our row lock). */
    private static void awaitWaiting(Databases.Db db, AtomicLong id) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? AND INFO LIKE 'UPDATE%'")) {
            while (System.nanoTime() < end) {
                ps.setLong(1, id.get());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (id.get() > 0 && rs.getInt(1) == 1) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        fail("the compare-and-set never waited on the row lock");
    }

    private static void kill(Databases.Db db, String what, long connectionId) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("KILL " + what + " " + connectionId);
        }
    }

    /** The recorded state changes of a cluster as from>to. */
    private static List<String> history(Databases.Db db, long clusterId) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT from_state, to_state FROM cks_state_history WHERE cluster_id = ? ORDER BY id")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1).strip() + ">" + rs.getString(2).strip());
                }
            }
        }
        return rows;
    }

    /** The history check: each row a transition of the table from where the last one ended, ending where the cluster is. */
    private static void historyHolds(Databases.Db db, Fixtures f, long clusterId, State initial) throws SQLException {
        State at = initial;
        for (String row : history(db, clusterId)) {
            String[] p = row.split(">");
            State from = State.valueOf(p[0]);
            State to = State.valueOf(p[1]);
            assertEquals(at, from, "a change that does not start where the last ended: " + row);
            assertTrue(Fixtures.MACHINE.transitions().stream().anyMatch(u -> u.expected() == from && u.target() == to),
                    "not a row of the table: " + row);
            at = to;
        }
        assertEquals(at, f.state(clusterId), "the cluster is in a state no recorded change put it in");
    }

    /** Runs the DAO's CAS in the background while the row is locked, kills it, returns what the CAS said. */
    private static Object casKilledWhileWaiting(Databases.Db db, String killWhat) throws Exception {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        Tracked source = new Tracked(db, null);
        KubernetesClusterStateDao<State, Event> dao =
                new KubernetesClusterStateDao<>(Fixtures.MACHINE, source);
        Object outcome;
        try (Connection holder = lockRow(db, id)) {
            CompletableFuture<Boolean> cas = CompletableFuture.supplyAsync(
                    () -> dao.updateState(id, State.Running, Event.StopRequested));
            awaitWaiting(db, source.lastConnectionId);
            kill(db, killWhat, source.lastConnectionId.get());
            try {
                outcome = cas.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                outcome = e.getCause();
            }
            holder.rollback();
        }
        // Never a hit: the row was locked the whole time, so nothing of the killed CAS committed.
        assertEquals(State.Running, f.state(id));
        assertEquals(List.of(), history(db, id));
        // The database answers the next compare-and-set.
        assertTrue(dao.updateState(id, State.Running, Event.StopRequested));
        assertEquals(List.of("Running>Stopping"), history(db, id));
        historyHolds(db, f, id, State.Running);
        return outcome;
    }

    @ParameterizedTest(name = "{0} connection killed while the CAS waits on a row lock: a clear error, nothing written")
    @MethodSource("mariadb")
    void connectionKilledInTheMiddleOfACompareAndSet(Databases.Db db) throws Exception {
        Object outcome = casKilledWhileWaiting(db, "CONNECTION");
        assertTrue(outcome instanceof StateStoreException, "a clear error, not " + outcome);
        StateStoreException failure = (StateStoreException) outcome;
        assertTrue(failure.getMessage().startsWith("updating the state of a Kubernetes cluster from "), failure.getMessage());
        assertFalse(failure.getMessage().matches("(?s).*cluster \\d.*"), "no row id in the message: " + failure.getMessage());
        assertTrue(failure.clusterId() > 0, "the id, for the caller's log");
        System.out.println("FAULT kill-connection " + db + " -> " + outcome);
    }

    @ParameterizedTest(name = "{0} statement killed while the CAS waits on a row lock: a clear error, nothing written")
    @MethodSource("mariadb")
    void queryKilledInTheMiddleOfACompareAndSet(Databases.Db db) throws Exception {
        Object outcome = casKilledWhileWaiting(db, "QUERY");
        assertTrue(outcome instanceof StateStoreException || Boolean.FALSE.equals(outcome),
                "a clear error or a lost race, not " + outcome);
        System.out.println("FAULT kill-query " + db + " -> " + outcome);
    }

    @ParameterizedTest(name = "{0} lock wait timeout: a lost race, nothing written")
    @MethodSource("mariadb")
    void lockWaitTimeoutIsALostRace(Databases.Db db) throws Exception {
        db.reset();
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        Tracked source = new Tracked(db, "SET SESSION innodb_lock_wait_timeout = 1");
        KubernetesClusterStateDao<State, Event> dao =
                new KubernetesClusterStateDao<>(Fixtures.MACHINE, source);
        long started = System.nanoTime();
        boolean hit;
        try (Connection holder = lockRow(db, id)) {
            hit = dao.updateState(id, State.Running, Event.StopRequested);
            holder.rollback();
        }
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertFalse(hit, "a lock wait timeout is a lost race");
        assertTrue(waitedMillis >= 900, "it did wait for the lock: " + waitedMillis + " ms");
        assertEquals(State.Running, f.state(id));
        assertEquals(List.of(), history(db, id));
        assertTrue(dao.updateState(id, State.Running, Event.StopRequested));
        historyHolds(db, f, id, State.Running);
        System.out.println("FAULT lock-wait-timeout " + db + " -> lost race after " + waitedMillis + " ms");
    }

    @ParameterizedTest(name = "{0} deadlock between the scanner's CAS and another transaction: one side loses, the answer matches the row")
    @MethodSource("mariadb")
    void deadlockIsALostRaceOrAHitThatMatchesTheRow(Databases.Db db) throws Exception {
        // InnoDB rolls back the lighter transaction: the other one when the scanner's connection
        // has modified a row before the cycle, the scanner's when the other has (a lost race).
        assertTrue(deadlock(db, false), "the scanner's CAS survives a lighter victim");
        assertFalse(deadlock(db, true), "the scanner's CAS is the victim: a lost race");
    }

    private static boolean deadlock(Databases.Db db, boolean otherModifiesFirst) throws Exception {
        db.reset();
        Fixtures f = new Fixtures(db);
        long a = f.cluster(State.Scaling);
        long b = f.cluster(State.Running);
        // Rows only the heavier side modifies: InnoDB's victim is the transaction of less weight
        // (rows modified and locked), so the heavier one is clearly so.
        List<Long> ballast = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ballast.add(f.cluster(State.Running));
        }
        KubernetesClusterStateDao<State, Event> dao =
                new KubernetesClusterStateDao<>(Fixtures.MACHINE, db.source());
        StateUpdate<State, Event> fail = new StateUpdate<>(State.Scaling, Event.OperationFailed,
                Fixtures.MACHINE.nextState(State.Scaling, Event.OperationFailed));
        boolean hit;
        Object other;
        // The scanner's connection (one per pass) already holds B, as after an earlier step of its pass.
        try (Connection scanner = lockRow(db, b); Connection tx = lockRow(db, a)) {
            try (Statement st = tx.createStatement(); Statement sc = scanner.createStatement()) {
                st.execute("SET SESSION innodb_lock_wait_timeout = 20");
                // One row per statement: a primary-key lookup locks that row only (an IN list on a
                // small table may be a scan that locks the other side's row too).
                Statement heavier = otherModifiesFirst ? st : sc;
                for (long id : ballast) {
                    heavier.executeUpdate("UPDATE kubernetes_cluster SET description = 'heavier' WHERE id = " + id);
                }
                heavier.executeUpdate("UPDATE kubernetes_cluster SET description = 'heavier' WHERE id = "
                        + (otherModifiesFirst ? a : b));
            }
            AtomicLong otherId = new AtomicLong();
            try (Statement st = tx.createStatement(); ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                otherId.set(rs.getLong(1));
            }
            // The other transaction (holding A) now wants B: it waits on the scanner.
            CompletableFuture<Object> otherSide = CompletableFuture.supplyAsync(() -> {
                try (PreparedStatement ps = tx.prepareStatement("UPDATE kubernetes_cluster SET name = 'x' WHERE id = ?")) {
                    ps.setLong(1, b);
                    ps.executeUpdate();
                    tx.commit();
                    return "committed";
                } catch (SQLException e) {
                    try {
                        tx.rollback();
                    } catch (SQLException ignored) {
                        // the connection is gone with its transaction
                    }
                    return e;
                }
            });
            awaitWaiting(db, otherId);
            // The scanner's CAS on A waits on the other transaction: a cycle, InnoDB picks a victim.
            hit = dao.applyAndCommit(scanner, a, StateWrite.of(fail));
            other = otherSide.get(30, TimeUnit.SECONDS);
        }
        boolean otherDeadlocked = other instanceof SQLException && SqlErrors.isLostRace((SQLException) other);
        assertTrue(!hit || otherDeadlocked, "both cannot win: " + hit + " / " + other);
        assertTrue(hit || "committed".equals(other), "one side must win: " + hit + " / " + other);
        assertEquals(hit ? fail.target() : State.Scaling, f.state(a), "the answer matches the row");
        assertEquals(hit ? List.of("Scaling>" + fail.target()) : List.of(), history(db, a));
        historyHolds(db, f, a, State.Scaling);
        historyHolds(db, f, b, State.Running);
        System.out.println("FAULT deadlock " + db + " -> scanner CAS " + (hit ? "hit" : "lost race (deadlock victim)")
                + ", other transaction " + (other instanceof SQLException ? "deadlock victim" : other));
        return hit;
    }
}
