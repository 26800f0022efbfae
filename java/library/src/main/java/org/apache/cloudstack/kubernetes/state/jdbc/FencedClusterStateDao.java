package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Fence;
import org.apache.cloudstack.kubernetes.state.FencedStateMachine;
import org.apache.cloudstack.kubernetes.state.FencedWrite;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The fenced mode's only writer of {@code kubernetes_cluster.state} and its fence columns: one
 * compare-and-set on (state, state_version) per write, which stores the next version and the
 * write's owner (NULL releases the cluster). The new version always differs from the old, so a
 * hit changes the row whatever the driver's affected-rows setting. Lost races (deadlock,
 * serialization failure, lock wait timeout) are misses, as in {@link KubernetesClusterStateDao};
 * with history on, a write that changes the state also inserts one {@code cks_state_history} row.
 * Thread-safe.
 */
public final class FencedClusterStateDao<S extends Enum<S>, E extends Enum<E>> {
    private static final Logger LOG = LogManager.getLogger(FencedClusterStateDao.class);

    /** The fenced compare-and-set. */
    public static final String CAS_SQL = "UPDATE kubernetes_cluster SET state = ?, state_version = ?,"
            + " op_owner_msid = ?, op_owner_runid = ?, op_job_id = ?"
            + " WHERE id = ? AND state = ? AND state_version = ? AND removed IS NULL";
    static final String FENCE_SQL = "SELECT state, state_version, op_owner_msid, op_owner_runid, op_job_id"
            + " FROM kubernetes_cluster WHERE id = ? AND removed IS NULL";

    private final FencedStateMachine<S, E> fenced;
    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final Long historyMsid;
    private final boolean history;

    public FencedClusterStateDao(ClusterStateMachine<S, E> machine, ConnectionSource source) {
        this(FencedStateMachine.of(machine), source, false, null);
    }

    private FencedClusterStateDao(FencedStateMachine<S, E> fenced, ConnectionSource source, boolean history,
            Long historyMsid) {
        this.fenced = Objects.requireNonNull(fenced, "fenced");
        this.machine = fenced.machine();
        this.source = Objects.requireNonNull(source, "source");
        this.history = history;
        this.historyMsid = historyMsid;
    }

    /** Like this DAO, also recording state changes in cks_state_history (msid may be null). */
    public FencedClusterStateDao<S, E> withHistory(Long managementServerId) {
        return new FencedClusterStateDao<>(fenced, source, true, managementServerId);
    }

    public FencedStateMachine<S, E> fenced() {
        return fenced;
    }

    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    public ConnectionSource source() {
        return source;
    }

    /** The fence of a live cluster, or null when there is none with this id. */
    public Fence<S> findFence(long clusterId) {
        try (Connection c = source.open()) {
            return findFence(c, clusterId);
        } catch (SQLException e) {
            throw new StateStoreException("reading the fence of Kubernetes cluster " + clusterId, e);
        }
    }

    Fence<S> findFence(Connection c, long clusterId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FENCE_SQL)) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? fence(rs, 1) : null;
            }
        } finally {
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }

    /** The fence in columns {@code first}.. (state, state_version, op_owner_msid, op_owner_runid, op_job_id). */
    Fence<S> fence(ResultSet rs, int first) throws SQLException {
        S state = machine.state(rs.getString(first).strip());
        long version = rs.getLong(first + 1);
        long msid = rs.getLong(first + 2);
        Owner owner = null;
        if (!rs.wasNull()) {
            long runid = rs.getLong(first + 3);
            long job = rs.getLong(first + 4);
            owner = new Owner(msid, runid, rs.wasNull() ? Owner.NO_JOB : job);
        }
        return Fence.of(state, version, owner);
    }

    /** Applies one fenced write; true when it hit (the row had exactly the expected token). */
    public boolean apply(long clusterId, FencedWrite<S, E> write) {
        Objects.requireNonNull(write, "write");
        if (!valid(clusterId, write)) {
            return false;
        }
        return ManualCommitWrite.run(source, () -> "fenced write " + write + " of Kubernetes cluster " + clusterId,
                c -> compareAndSet(c, clusterId, write));
    }

    /** {@link #apply(long, FencedWrite)} on a manual-commit connection: commits a hit, rolls back a miss. */
    boolean apply(Connection c, long clusterId, FencedWrite<S, E> write) throws SQLException {
        return valid(clusterId, write) && compareAndSet(c, clusterId, write);
    }

    /** Only writes of the core's shape: a table transition (or none) and the next version. */
    private boolean valid(long clusterId, FencedWrite<S, E> w) {
        S expected = w.expected().state();
        S target = w.target().state();
        boolean shape = w.event() == null ? target == expected : machine.nextState(expected, w.event()) == target;
        if (!shape || w.target().version() != w.expected().version() + 1) {
            LOG.warn("Kubernetes cluster {}: {} is not a fenced write of the table; not written", clusterId, w);
            return false;
        }
        return true;
    }

    private boolean compareAndSet(Connection c, long clusterId, FencedWrite<S, E> w) throws SQLException {
        return ManualCommitWrite.inTransaction(c, () -> "Kubernetes cluster " + clusterId + ": " + w, tx -> {
            int rows;
            try (PreparedStatement ps = tx.prepareStatement(CAS_SQL)) {
                ps.setString(1, w.target().state().name());
                ps.setLong(2, w.target().version());
                Owner o = w.owner();
                if (o == null) {
                    ps.setNull(3, Types.BIGINT);
                    ps.setNull(4, Types.BIGINT);
                    ps.setNull(5, Types.BIGINT);
                } else {
                    ps.setLong(3, o.msid());
                    ps.setLong(4, o.runid());
                    if (o.hasJob()) {
                        ps.setLong(5, o.jobId());
                    } else {
                        ps.setNull(5, Types.BIGINT);
                    }
                }
                ps.setLong(6, clusterId);
                ps.setString(7, w.expected().state().name());
                ps.setLong(8, w.expected().version());
                rows = ps.executeUpdate();
            }
            if (rows == 0) {
                LOG.debug("Kubernetes cluster {}: token {} is gone, {} not applied", clusterId, w.expected(), w);
                return false;
            }
            if (history && w.event() != null) {
                KubernetesClusterStateDao.recordHistory(tx, clusterId, w.expected().state().name(),
                        w.target().state().name(), w.event().name(), historyMsid);
            }
            LOG.debug("Kubernetes cluster {}: {}", clusterId, w);
            return true;
        });
    }
}
