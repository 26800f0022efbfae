// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;
import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The only writer of {@code kubernetes_cluster.state}: a compare-and-set that replaces CloudStack's
 * {@code KubernetesClusterDaoImpl.updateState} (which wrote by id alone and always returned true).
 * A write of the machine's {@link StateMode} runs its SQL: COMPAT {@value #CAS_SQL}; FENCED
 * {@value #FENCED_CAS_SQL}, storing the next version and the write's owner (NULL releases). A write
 * of another shape than the core's for that mode ({@code ClusterStateMachine.shapeError}: not a table
 * transition, a version not bumped by exactly one, a mode's write in the other mode) is refused:
 * false, no SQL. Why a hit never depends on found vs affected
 * rows, and why a lost race is a miss, not an error: the package documentation. Thread-safe: every
 * call uses its own connection.
 */
public final class KubernetesClusterStateDao<S extends Enum<S>, E extends Enum<E>> implements ClusterStateStore<S, E> {
    private static final Logger LOG = LogManager.getLogger(KubernetesClusterStateDao.class);

    private static final String READING = "reading the state of a Kubernetes cluster";
    /** The compat compare-and-set. */
    public static final String CAS_SQL =
            "UPDATE kubernetes_cluster SET state = ? WHERE id = ? AND state = ? AND removed IS NULL";
    /** The fenced compare-and-set. */
    public static final String FENCED_CAS_SQL = "UPDATE kubernetes_cluster SET state = ?, "
            + FenceColumnsSql.ASSIGNMENTS + " WHERE id = ? AND state = ? AND " + FenceColumnsSql.VERSION
            + " = ? AND removed IS NULL";
    static final String STATE_SQL = "SELECT state FROM kubernetes_cluster WHERE id = ? AND removed IS NULL";
    static final String FENCE_SQL = "SELECT state, " + FenceColumnsSql.LIST
            + " FROM kubernetes_cluster WHERE id = ? AND removed IS NULL";

    private final ClusterStateMachine<S, E> machine;
    /** Upstream's updateState writes compat-shaped in either mode (a fenced schema's trigger bumps the version). */
    private final ClusterStateMachine<S, E> compatMachine;
    private final ConnectionSource source;
    private final boolean fenced;

    public KubernetesClusterStateDao(ClusterStateMachine<S, E> machine, ConnectionSource source) {
        this.machine = Arguments.required(machine, "machine");
        this.source = Arguments.required(source, "source");
        this.compatMachine = machine.withMode(StateMode.COMPAT);
        this.fenced = machine.mode() == StateMode.FENCED;
    }

    @Override
    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    @Override
    public StateMode mode() {
        return machine.mode();
    }

    public ConnectionSource source() {
        return source;
    }

    /**
     * Upstream's {@code updateState}: from {@code expected} by {@code event}, compared on the state
     * alone (a fenced schema's trigger bumps the version). True when this call changed the row.
     */
    public boolean updateState(long clusterId, S expected, E event) {
        StateWrite<S, E> write = upstreamWrite(clusterId, expected, event);
        return write != null && CasTransaction.run(source, clusterId, "updating the state of a Kubernetes cluster from "
                + expected + " to " + write.target().state(), () -> "write " + write,
                c -> compareAndSet(c, clusterId, write));
    }

    /** A compat write of the table row {@code update} (see {@link #apply(long, StateWrite)}). */
    public boolean apply(long clusterId, StateUpdate<S, E> update) {
        Arguments.required(update, "update");
        return apply(clusterId, StateWrite.of(update));
    }

    /** Applies one write the native core decided; true when it hit (the row had exactly the expected token). */
    @Override
    public boolean apply(long clusterId, StateWrite<S, E> write) {
        Arguments.required(write, "write");
        if (!CompareAndSetRule.valid(machine, clusterId, write)) {
            return false;
        }
        return CasTransaction.run(source, clusterId, "changing the state of a Kubernetes cluster from "
                + write.expected().state() + " to " + write.target().state(), () -> "write " + write,
                c -> compareAndSet(c, clusterId, write));
    }

    /**
     * Removes (soft-deletes, as CloudStack's {@code remove} does) the row of a cluster still at
     * {@code expected}: a compare-and-set, so that an operation that moved it first (a start of a
     * Created cluster) makes this miss. Fenced, {@code release} is the core's completion that releases
     * the hold (its version is stored, the owner cleared); compat, null. True when the row was removed.
     */
    @Override
    public boolean removeAt(long clusterId, Token<S> expected, StateWrite<S, E> release) {
        Arguments.required(expected, "expected");
        if (!CompareAndSetRule.validRemoval(machine, clusterId, expected, release)) {
            return false;
        }
        Token<S> released = release == null ? null : release.target();
        return CasTransaction.run(source, clusterId, "removing a Kubernetes cluster in state " + expected.state(),
                () -> "removal at " + expected, c -> CasTransaction.inTransaction(c, () -> "Kubernetes cluster "
                        + clusterId + ": removal at " + expected, tx -> removeRow(tx, clusterId, expected, released)));
    }

    /** The removal's statement: the fenced one also stores the released version and clears the owner. */
    private boolean removeRow(Connection c, long clusterId, Token<S> expected, Token<S> released) throws SQLException {
        String release = fenced ? ", " + FenceColumnsSql.VERSION + " = ?, " + FenceColumnsSql.OWNER_MSID + " = NULL, "
                + FenceColumnsSql.OWNER_RUNID + " = NULL, " + FenceColumnsSql.JOB + " = NULL" : "";
        String version = fenced ? " AND " + FenceColumnsSql.VERSION + " = ?" : "";
        try (PreparedStatement ps = c.prepareStatement("UPDATE kubernetes_cluster SET removed = " + DatabaseClock.utcNow(c)
                + release + " WHERE id = ? AND state = ?" + version + " AND removed IS NULL")) {
            int i = 1;
            if (fenced) {
                ps.setLong(i++, released.version());
            }
            ps.setLong(i++, clusterId);
            ps.setString(i++, expected.state().name());
            if (fenced) {
                ps.setLong(i, expected.version());
            }
            return ps.executeUpdate() == 1;
        }
    }

    /** {@link #apply(long, StateWrite)} on the scanner's manual-commit connection: commits a hit, rolls back a miss. */
    boolean applyAndCommit(Connection c, long clusterId, StateWrite<S, E> write) throws SQLException {
        return CompareAndSetRule.valid(machine, clusterId, write) && compareAndSet(c, clusterId, write);
    }

    // ---- Joined forms: on the caller's connection, inside the caller's transaction (CloudStack's
    // TransactionLegacy.currentTxn()). They never commit, roll back, change auto-commit or isolation,
    // or close the connection. A lost race (deadlock,
    // lock wait timeout) is thrown as a StateStoreException whose isLostRace() is true: the database
    // may have rolled the caller's transaction back, and the caller decides.

    /**
     * {@link #updateState(long, Enum, Enum)} in the caller's transaction on {@code connection}: true
     * when this call changed the row. A row the caller's transaction already locked is written at once.
     */
    public boolean updateState(Connection connection, long clusterId, S expected, E event) {
        Arguments.required(connection, "connection");
        StateWrite<S, E> write = upstreamWrite(clusterId, expected, event);
        return write != null && joined(connection, clusterId, write);
    }

    /**
     * The compat write of upstream's updateState, the core's in one call: the table's row from {@code expected}
     * by {@code event}, or null (no row, one that keeps the state, or one the host's enums cannot express).
     */
    private StateWrite<S, E> upstreamWrite(long clusterId, S expected, E event) {
        Arguments.required(expected, "expected");
        Arguments.required(event, "event");
        StateWrite<S, E> write = compatMachine.upstreamWrite(expected, event);
        if (write == null) {
            LOG.warn("Kubernetes cluster {}: no state change from {} by {} in the table (or not in the host's enums); state not written",
                    clusterId, expected, event);
        }
        return write;
    }

    /** {@link #apply(long, StateWrite)} in the caller's transaction on {@code connection}; true when it hit. */
    public boolean apply(Connection connection, long clusterId, StateWrite<S, E> write) {
        Arguments.required(connection, "connection");
        Arguments.required(write, "write");
        return CompareAndSetRule.valid(machine, clusterId, write) && joined(connection, clusterId, write);
    }

    /** {@link #findState(long)} in the caller's transaction on {@code connection}. */
    public S findState(Connection connection, long clusterId) {
        ClusterRow<S> row = findRow(connection, clusterId);
        return row == null ? null : row.state();
    }

    /** {@link #findRow(long)} in the caller's transaction on {@code connection}. */
    public ClusterRow<S> findRow(Connection connection, long clusterId) {
        Arguments.required(connection, "connection");
        try {
            return readRow(connection, clusterId);
        } catch (SQLException e) {
            throw StateStoreException.ofCluster(READING, clusterId, e);
        }
    }

    private boolean joined(Connection c, long clusterId, StateWrite<S, E> w) {
        try {
            return writeRow(c, clusterId, w);
        } catch (SQLException e) {
            throw StateStoreException.ofCluster("changing the state of a Kubernetes cluster from " + w.expected().state()
                    + " to " + w.target().state() + " in the caller's transaction", clusterId, "write " + w + " in the caller's transaction", e);
        }
    }

    /** The state of a live (not removed) cluster, or null when there is none with this id. */
    @Override
    public S findState(long clusterId) {
        ClusterRow<S> row = findRow(clusterId);
        return row == null ? null : row.state();
    }

    /** The row of a live cluster as this mode reads it (fenced: with version and owner), or null. */
    @Override
    public ClusterRow<S> findRow(long clusterId) {
        try (Connection c = source.open()) {
            return readRow(c, clusterId);
        } catch (SQLException e) {
            throw StateStoreException.ofCluster(READING, clusterId, e);
        }
    }

    private ClusterRow<S> readRow(Connection c, long clusterId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(fenced ? FENCE_SQL : STATE_SQL)) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? row(rs, 1) : null;
            }
        }
    }

    /** The columns this mode reads for a row: state (fenced: the fence columns too). */
    String rowColumns(String alias) {
        String state = alias == null ? "state" : alias + ".state";
        return fenced ? state + ", " + FenceColumnsSql.list(alias) : state;
    }

    /** How many columns {@link #rowColumns} reads. */
    int rowColumnCount() {
        return fenced ? 1 + FenceColumnsSql.COUNT : 1;
    }

    /** The row in columns {@code first}.. as {@link #rowColumns} lists them. */
    ClusterRow<S> row(ResultSet rs, int first) throws SQLException {
        S state = machine.state(rs.getString(first).strip());
        return fenced ? FenceColumnsSql.read(rs, first + 1, state) : ClusterRow.of(state);
    }

    /** On a manual-commit connection: commits a hit, rolls back a miss or a failure. */
    private boolean compareAndSet(Connection c, long clusterId, StateWrite<S, E> w) throws SQLException {
        return CasTransaction.inTransaction(c, () -> "Kubernetes cluster " + clusterId + ": " + w,
                tx -> writeRow(tx, clusterId, w));
    }

    /** The compare-and-set, in whatever transaction {@code c} is in; true on a hit. */
    private boolean writeRow(Connection c, long clusterId, StateWrite<S, E> w) throws SQLException {
        int rows;
        try (PreparedStatement ps = c.prepareStatement(w.versioned() ? FENCED_CAS_SQL : CAS_SQL)) {
            bind(ps, clusterId, w);
            rows = ps.executeUpdate();
        }
        if (rows == 0) {
            LOG.debug("Kubernetes cluster {}: not at {} any more, {} not applied", clusterId, w.expected(), w);
            return false;
        }
        LOG.debug("Kubernetes cluster {}: {}", clusterId, w);
        return true;
    }

    private static void bind(PreparedStatement ps, long clusterId, StateWrite<?, ?> w) throws SQLException {
        ps.setString(1, ((Enum<?>) w.target().state()).name());
        if (!w.versioned()) {
            ps.setLong(2, clusterId);
            ps.setString(3, ((Enum<?>) w.expected().state()).name());
            return;
        }
        FenceColumnsSql.bind(ps, 2, w.target().version(), w.owner());
        ps.setLong(6, clusterId);
        ps.setString(7, ((Enum<?>) w.expected().state()).name());
        ps.setLong(8, w.expected().version());
    }
}
