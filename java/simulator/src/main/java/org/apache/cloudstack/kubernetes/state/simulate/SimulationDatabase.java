// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.ClusterManagerRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobInsert;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;

/**
 * The database a simulation runs on: an embedded H2 in a temp folder by default, or a MariaDB /
 * MySQL database given by URL. Everything here is test-bench I/O (jobs, VMs, servers); the
 * cluster state itself is only written through the library's DAO.
 */
final class SimulationDatabase implements AutoCloseable {
    private static final int VMS_PER_CLUSTER = 3;

    private final String url;
    private final Path tempDir;
    /** Opening a connection costs more than most statements here: pool them, as a server does. */
    private final DataSource pool;
    /** Keeps an embedded database open between connections. */
    private final Connection keepAlive;
    /** The kit of CloudStack rows the library's tests use, and CloudStack's server bookkeeping. */
    private final CloudStackRows rows;
    private final ClusterManagerRows servers;

    private SimulationDatabase(String url, String user, String password, Path tempDir, int connections)
            throws SQLException {
        this.url = url;
        this.tempDir = tempDir;
        this.pool = SimulationPool.open(url, user, password, connections);
        Connection first = null;
        try {
            first = open();
        } catch (SQLException | RuntimeException e) {
            // A failed attach is retried with a new pool: this one must not keep what it opened.
            if (first != null) {
                first.close();
            }
            SimulationPool.close(pool);
            throw e;
        }
        this.keepAlive = first;
        this.rows = new CloudStackRows(source()::open);
        this.servers = new ClusterManagerRows(source()::open);
    }

    /**
     * The connections a management server of the simulation holds at most: one per worker, the
     * scanner's, the heartbeat's and one for its start-up reads.
     */
    static int connectionsPerServer(int workers) {
        return workers + 3;
    }

    /** An embedded H2 in a temp folder (deleted at close), with a pool of at most {@code connections}. */
    static SimulationDatabase embedded(int connections) throws SQLException {
        try {
            Path dir = Files.createTempDirectory("cks-state-simulate-");
            String url = "jdbc:h2:file:" + dir.resolve("cloud") + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE"
                    + ";LOCK_TIMEOUT=10000";
            return new SimulationDatabase(url, "sa", "", dir, connections);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A database another process prepared, with a pool of at most {@code connections} (a management
     * server process of simulate --processes, or the parent that judges them).
     */
    static SimulationDatabase attach(String url, String user, String password, int connections) throws SQLException {
        return new SimulationDatabase(url, user, password, null, connections);
    }

    String describe() {
        return tempDir != null ? "embedded H2 (" + tempDir + ")" : url.replaceAll("password=[^&;]*", "password=***");
    }

    Connection open() throws SQLException {
        return pool.getConnection();
    }

    ConnectionSource source() {
        return this::open;
    }

    /** Creates the tables and empties them, on an empty database or a previous run's only ({@link SimulationSchema}). */
    void prepare() throws SQLException {
        try (Connection c = open()) {
            SimulationSchema.prepare(c, describe());
        }
    }

    /** Inserts the clusters in their initial states with their VMs; returns id and uuid per index. */
    List<SimCluster> seedClusters(List<String> initialStates) throws SQLException {
        List<SimCluster> clusters = new ArrayList<>();
        long vmId = 1000;
        for (int i = 0; i < initialStates.size(); i++) {
            String state = initialStates.get(i);
            String uuid = String.format("00000000-0000-4000-8000-%012d", i);
            long id = rows.cluster(state).name("k8s-" + i).uuid(uuid).nodes(1, VMS_PER_CLUSTER - 1).insert();
            String vmState = "Running".equals(state) ? "Running" : "Stopped";
            for (int n = 0; n < VMS_PER_CLUSTER; n++, vmId++) {
                rows.vm(id, vmId, vmState, n == 0 ? CloudStackRows.NodeRole.CONTROL : CloudStackRows.NodeRole.WORKER);
            }
            clusters.add(new SimCluster(i, id, uuid, state));
        }
        return clusters;
    }

    /** Writes the job IN_PROGRESS as CloudStack does before the worker runs (an older server's: instance_id NULL). */
    long insertJob(long msid, ScriptedOperation op, SimCluster cluster) throws SQLException {
        JobInsert job = rows.job().cmd(op.kind().jobCmd).shape(JobShape.UPSTREAM)
                .cluster(cluster.id(), cluster.uuid()).msid(msid);
        if (op.legacyJob()) {
            job.instance(null);
        }
        return job.insert();
    }

    /** CloudStack's writes about the management servers and their jobs, on this database. */
    ClusterManagerRows servers() {
        return servers;
    }

    void registerServer(long msid, long runid, String name) throws SQLException {
        rows.mshost(msid).runid(runid).name(name).insert();
    }

    /** Sets a global setting as CloudStack stores it. */
    void setting(String name, String value) throws SQLException {
        execute("DELETE FROM configuration WHERE name = ?", name);
        rows.setting(name, value, value);
    }

    /** The seeded clusters in id order (their script indexes); the initial state is not read. */
    List<SimCluster> clusters() throws SQLException {
        List<SimCluster> out = new ArrayList<>();
        try (Connection c = open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, uuid FROM kubernetes_cluster ORDER BY id")) {
            while (rs.next()) {
                out.add(new SimCluster(out.size(), rs.getLong(1), rs.getString(2), null));
            }
        }
        return out;
    }

    /** The hypervisor's side of an operation's work: the cluster's VMs end up in this state. */
    void setVmStates(long clusterId, String vmState) throws SQLException {
        execute("UPDATE vm_instance SET state = ? WHERE id IN"
                + " (SELECT vm_id FROM kubernetes_cluster_vm_map WHERE cluster_id = ?)", vmState, clusterId);
    }

    /** One statement with these parameters, on a pooled connection. */
    int execute(String sql, Object... parameters) throws SQLException {
        try (Connection c = open(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            return ps.executeUpdate();
        }
    }

    String state(long clusterId) throws SQLException {
        try (Connection c = open();
             PreparedStatement ps = c.prepareStatement("SELECT state FROM kubernetes_cluster WHERE id = ?")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1).strip() : null;
            }
        }
    }

    /** Cluster id -> state, for every cluster. */
    Map<Long, String> states() throws SQLException {
        Map<Long, String> out = new LinkedHashMap<>();
        try (Connection c = open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, state FROM kubernetes_cluster ORDER BY id")) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getString(2).strip());
            }
        }
        return out;
    }

    /** Every recorded state change (the test kit's history trigger), in order: cluster id, from, to. */
    List<String[]> history() throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Connection c = open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT cluster_id, from_state, to_state FROM cks_state_history ORDER BY id")) {
            while (rs.next()) {
                out.add(new String[] {Long.toString(rs.getLong(1)), rs.getString(2).strip(), rs.getString(3).strip()});
            }
        }
        return out;
    }

    @Override
    public void close() throws SQLException {
        try {
            keepAlive.close();
            SimulationPool.close(pool);
        } finally {
            if (tempDir != null) {
                TempTree.delete(tempDir);
            }
        }
    }
}
