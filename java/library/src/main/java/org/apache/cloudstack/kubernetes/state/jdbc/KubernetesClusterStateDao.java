package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateUpdate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The only writer of {@code kubernetes_cluster.state}: a compare-and-set that replaces CloudStack's
 * {@code KubernetesClusterDaoImpl.updateState} (which wrote by id alone and always returned true).
 *
 * <p>{@link #updateState(long, Enum, Enum)} asks the native table for the next state and issues
 * exactly one {@code UPDATE kubernetes_cluster SET state = ? WHERE id = ? AND state = ? AND removed IS NULL}.
 * It returns whether that row changed:
 * <ul>
 *   <li><b>No transition</b> for (expected, event): returns {@code false} without any SQL (and
 *       logs a warning). It never writes blindly and never throws for this.</li>
 *   <li><b>Found rows vs affected rows</b>: MySQL/MariaDB report 0 changed rows for an UPDATE that
 *       sets the value already there, unless the client asks for found rows (Connector/J
 *       {@code useAffectedRows}). The table has no self-loop and the DAO refuses one (false, no
 *       SQL), so the UPDATE always sets a state different from the one its WHERE clause matched:
 *       a row that matches is a row that changes, and both modes report 1 for a hit and 0 for a
 *       miss. The answer never depends on the setting.</li>
 *   <li><b>Lost race</b>: a deadlock or serialization failure (SQLState class 40, e.g. 40001; MySQL
 *       error 1213) or a lock wait timeout (MySQL 1205, H2 50200) means another writer had the
 *       row: the transaction is rolled back, logged, and the result is {@code false}. Other SQL
 *       failures throw {@link StateStoreException}.</li>
 * </ul>
 *
 * <p>History: a DAO made by {@link #withHistory(Long)} also inserts one {@code cks_state_history}
 * row per change, in the same transaction (off by default, so CloudStack's schema is untouched).
 *
 * <p>Thread-safe: no mutable state; every call uses its own connection from the source.
 */
public final class KubernetesClusterStateDao<S extends Enum<S>, E extends Enum<E>> {
    private static final Logger LOG = LogManager.getLogger(KubernetesClusterStateDao.class);

    /** The compare-and-set. */
    public static final String CAS_SQL =
            "UPDATE kubernetes_cluster SET state = ? WHERE id = ? AND state = ? AND removed IS NULL";
    static final String HISTORY_SQL = "INSERT INTO cks_state_history (cluster_id, from_state, to_state, event, msid, `at`)"
            + " VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP(3))";
    static final String STATE_SQL = "SELECT state FROM kubernetes_cluster WHERE id = ? AND removed IS NULL";

    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final boolean history;
    private final Long msid;

    public KubernetesClusterStateDao(ClusterStateMachine<S, E> machine, ConnectionSource source) {
        this(machine, source, false, null);
    }

    private KubernetesClusterStateDao(ClusterStateMachine<S, E> machine, ConnectionSource source, boolean history,
            Long msid) {
        this.machine = Objects.requireNonNull(machine, "machine");
        this.source = Objects.requireNonNull(source, "source");
        this.history = history;
        this.msid = msid;
    }

    /**
     * A DAO like this one that also records every change in {@code cks_state_history} (create it
     * with {@link CloudStackSchema#createHistory}); {@code msid} is this management server's id,
     * or null.
     */
    public KubernetesClusterStateDao<S, E> withHistory(Long managementServerId) {
        return new KubernetesClusterStateDao<>(machine, source, true, managementServerId);
    }

    /** True when changes are recorded in cks_state_history. */
    public boolean recordsHistory() {
        return history;
    }

    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    public ConnectionSource source() {
        return source;
    }

    /**
     * Moves the cluster from {@code expected} by {@code event} to the table's next state, by
     * compare-and-set. True when this call changed the row; false when the cluster is not in
     * {@code expected} any more (or is removed, or does not exist), when there is no transition,
     * or when the race was lost to a concurrent writer.
     */
    public boolean updateState(long clusterId, S expected, E event) {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(event, "event");
        S target = machine.nextState(expected, event);
        if (target == null) {
            LOG.warn("Kubernetes cluster {}: no transition from {} by {}; state not written", clusterId, expected,
                    event);
            return false;
        }
        return write(clusterId, expected, event, target);
    }

    /**
     * Applies a compare-and-set decided by the native core ({@code EntryDecision.update()},
     * {@code ScaleStep.update()}, {@code Completion.update()}, a recovery or reconcile step). The
     * update must be a transition of the table: otherwise false, without SQL.
     */
    public boolean apply(long clusterId, StateUpdate<S, E> update) {
        Objects.requireNonNull(update, "update");
        S target = machine.nextState(update.expected(), update.event());
        if (target == null || target != update.target()) {
            LOG.warn("Kubernetes cluster {}: {} is not a transition of the table; state not written", clusterId,
                    update);
            return false;
        }
        return write(clusterId, update.expected(), update.event(), target);
    }

    /**
     * {@link #apply} on the caller's connection, which must be in manual-commit mode: commits on a
     * hit, rolls back on a miss. Used by the status scanner to keep one connection per pass.
     */
    boolean apply(Connection c, long clusterId, StateUpdate<S, E> update) throws SQLException {
        S target = machine.nextState(update.expected(), update.event());
        if (target == null || target != update.target() || target == update.expected()) {
            LOG.warn("Kubernetes cluster {}: {} is not a transition of the table; state not written", clusterId,
                    update);
            return false;
        }
        return compareAndSet(c, clusterId, update.expected(), update.event(), target);
    }

    /** The state of a live (not removed) cluster, or null when there is none with this id. */
    public S findState(long clusterId) {
        try (Connection c = source.open()) {
            return findState(c, clusterId);
        } catch (SQLException e) {
            throw new StateStoreException("reading the state of Kubernetes cluster " + clusterId, e);
        }
    }

    S findState(Connection c, long clusterId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(STATE_SQL)) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                return machine.state(rs.getString(1).strip());
            }
        } finally {
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }

    private boolean write(long clusterId, S expected, E event, S target) {
        if (target == expected) {
            // There is no self-loop in the table; a self-loop could not tell a hit from a miss
            // under found-rows reporting, so it is never written.
            LOG.warn("Kubernetes cluster {}: self-loop {} by {} is never written", clusterId, expected, event);
            return false;
        }
        return ManualCommitWrite.run(source, () -> "updating the state of Kubernetes cluster " + clusterId
                + " from " + expected + " to " + target, c -> compareAndSet(c, clusterId, expected, event, target));
    }

    /**
     * The compare-and-set on a connection in manual-commit mode: commits on a hit, rolls back on a
     * miss or a failure. Lost races give false; other failures are thrown.
     */
    boolean compareAndSet(Connection c, long clusterId, S expected, E event, S target) throws SQLException {
        return ManualCommitWrite.inTransaction(c, () -> "Kubernetes cluster " + clusterId + ": " + expected + " -> "
                + target, tx -> {
                    int rows;
                    try (PreparedStatement ps = tx.prepareStatement(CAS_SQL)) {
                        ps.setString(1, target.name());
                        ps.setLong(2, clusterId);
                        ps.setString(3, expected.name());
                        rows = ps.executeUpdate();
                    }
                    if (rows == 0) {
                        LOG.debug("Kubernetes cluster {}: not in {} any more, {} not applied", clusterId, expected,
                                event);
                        return false;
                    }
                    if (history) {
                        recordHistory(tx, clusterId, expected.name(), target.name(), event.name(), msid);
                    }
                    LOG.debug("Kubernetes cluster {}: {} -> {} by {}", clusterId, expected, target, event);
                    return true;
                });
    }

    /** The {@code cks_state_history} row of a change, in the caller's transaction. */
    static void recordHistory(Connection c, long clusterId, String from, String to, String event, Long msid)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(HISTORY_SQL)) {
            ps.setLong(1, clusterId);
            ps.setString(2, from);
            ps.setString(3, to);
            ps.setString(4, event);
            if (msid == null) {
                ps.setNull(5, Types.BIGINT);
            } else {
                ps.setLong(5, msid);
            }
            ps.executeUpdate();
        }
    }
}
