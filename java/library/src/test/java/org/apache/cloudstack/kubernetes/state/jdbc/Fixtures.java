package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.UUID;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.Event;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.State;

/**
 * Test setup on CloudStack's tables: rows written directly with SQL (the only writes of
 * {@code state} outside the DAO, as the brief allows for setup), plus a few readers.
 */
final class Fixtures {
    static final ClusterStateMachine<State, Event> MACHINE = ClusterStateMachine.bind(State.class, Event.class);
    static final String SCALE_CMD = "org.apache.cloudstack.api.command.user.kubernetes.cluster.ScaleKubernetesClusterCmd";

    private final Databases.Db db;

    Fixtures(Databases.Db db) {
        this.db = db;
    }

    KubernetesClusterStateDao<State, Event> dao() {
        return dao(StateMode.COMPAT);
    }

    KubernetesClusterStateDao<State, Event> dao(StateMode mode) {
        return new KubernetesClusterStateDao<>(MACHINE.withMode(mode), db.source());
    }

    /** A guard of {@code mode} bound to {@code owner}. */
    ClusterOperationGuard<State, Event> guard(StateMode mode, Owner owner) {
        return new ClusterOperationGuard<>(dao(mode), owner);
    }

    /** The scanner of {@code mode} on management server {@code me}. */
    KubernetesClusterStatusScanner<State, Event> scanner(StateMode mode, Owner me) {
        return new KubernetesClusterStatusScanner<>(dao(mode), () -> me);
    }

    /** A CloudManaged cluster with 1 control node and {@code workers} workers; returns its id. */
    long cluster(State state) throws SQLException {
        return cluster(state, "CloudManaged", 1);
    }

    long cluster(State state, String clusterType, int workers) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO kubernetes_cluster (uuid, name, state, created, cluster_type, control_node_count,"
                        + " node_count) VALUES (?, ?, ?, CURRENT_TIMESTAMP, ?, 1, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            String uuid = UUID.randomUUID().toString();
            ps.setString(1, uuid);
            ps.setString(2, "k8s-" + uuid.substring(0, 8));
            ps.setString(3, state.name());
            ps.setString(4, clusterType);
            ps.setInt(5, workers);
            ps.executeUpdate();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    String uuid(long clusterId) throws SQLException {
        return queryString("SELECT uuid FROM kubernetes_cluster WHERE id = " + clusterId);
    }

    /** The stored state (removed rows included), or null. */
    State state(long clusterId) throws SQLException {
        String s = queryString("SELECT state FROM kubernetes_cluster WHERE id = " + clusterId);
        return s == null ? null : State.valueOf(s.strip());
    }

    /** Test setup only: sets the state as another writer (or an operator) would. */
    void setState(long clusterId, State state) throws SQLException {
        update("UPDATE kubernetes_cluster SET state = '" + state.name() + "' WHERE id = " + clusterId);
    }

    void remove(long clusterId) throws SQLException {
        update("UPDATE kubernetes_cluster SET removed = CURRENT_TIMESTAMP WHERE id = " + clusterId);
    }

    /** An async job row to build: IN_PROGRESS, a KubernetesCluster scale, no instance_id, unless set. */
    Job job() {
        return new Job();
    }

    /** One async_job row, built by name instead of by position; {@link #insert()} returns its id. */
    final class Job {
        private int status;
        private String instanceType = "KubernetesCluster";
        private Long instanceId;
        private String cmd = SCALE_CMD;
        private String cmdInfo;
        private boolean removed;

        Job status(int jobStatus) {
            this.status = jobStatus;
            return this;
        }

        /** instance_type; null = not recorded. */
        Job type(String type) {
            this.instanceType = type;
            return this;
        }

        /** instance_id; null = not recorded. */
        Job instance(Long clusterId) {
            this.instanceId = clusterId;
            return this;
        }

        Job cmd(String jobCmd) {
            this.cmd = jobCmd;
            return this;
        }

        Job cmdInfo(String json) {
            this.cmdInfo = json;
            return this;
        }

        /** Soft-deleted, as CloudStack leaves finished jobs. */
        Job removed(boolean soft) {
            this.removed = soft;
            return this;
        }

        long insert() throws SQLException {
            try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO async_job (uuid, job_status, instance_type, instance_id, job_cmd, job_cmd_info,"
                            + " job_init_msid, created, removed) VALUES (?, ?, ?, ?, ?, ?, 345049103441, CURRENT_TIMESTAMP, "
                            + (removed ? "CURRENT_TIMESTAMP" : "NULL") + ")",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, UUID.randomUUID().toString());
                ps.setInt(2, status);
                ps.setString(3, instanceType);
                if (instanceId == null) {
                    ps.setNull(4, Types.BIGINT);
                } else {
                    ps.setLong(4, instanceId);
                }
                ps.setString(5, cmd);
                ps.setString(6, cmdInfo);
                ps.executeUpdate();
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }
    }

    /** An IN_PROGRESS cluster job that records the cluster in instance_id. */
    long jobWithInstanceId(long clusterId) throws SQLException {
        return job().instance(clusterId).cmdInfo(cmdInfo(uuid(clusterId))).insert();
    }

    /** An IN_PROGRESS cluster job as an older server writes it: instance_id NULL, uuid in job_cmd_info. */
    long jobWithUuidOnly(long clusterId) throws SQLException {
        return job().cmdInfo(cmdInfo(uuid(clusterId))).insert();
    }

    /** job_cmd_info as CloudStack writes it (nested ctxDetails JSON inside a string). */
    static String cmdInfo(String uuid) {
        return "{\"response\":\"json\",\"ctxDetails\":\"{\\\"interface com.cloud.kubernetes.cluster.KubernetesCluster\\\":"
                + "\\\"" + UUID.randomUUID() + "\\\"}\",\"size\":\"3\",\"id\":\"" + uuid + "\","
                + "\"cmdEventType\":\"KUBERNETES.CLUSTER.SCALE\",\"ctxUserId\":\"2\",\"httpmethod\":\"POST\"}";
    }

    /** A VM mapped to the cluster. */
    void vm(long clusterId, long vmId, String state, boolean control) throws SQLException {
        update("INSERT INTO vm_instance (id, name, uuid, instance_name, state) VALUES (" + vmId + ", 'vm-" + vmId + "', '"
                + UUID.randomUUID() + "', 'i-2-" + vmId + "-VM', '" + state + "')");
        update("INSERT INTO kubernetes_cluster_vm_map (cluster_id, vm_id, control_node) VALUES (" + clusterId + ", "
                + vmId + ", " + (control ? 1 : 0) + ")");
    }

    void setVmState(long vmId, String state) throws SQLException {
        update("UPDATE vm_instance SET state = '" + state + "' WHERE id = " + vmId);
    }

    long count(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    int update(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            return st.executeUpdate(sql);
        }
    }

    private String queryString(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
