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
import org.apache.cloudstack.kubernetes.state.internal.DatabaseClock;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;

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
    /** "Now" in CloudStack's time base on this database ({@link DatabaseClock}). */
    private final String now;

    private SimulationDatabase(String url, String user, String password, Path tempDir, int connections)
            throws SQLException {
        this.url = url;
        this.tempDir = tempDir;
        this.pool = SimulationPool.open(url, user, password, connections);
        Connection first = null;
        try {
            first = open();
            this.now = DatabaseClock.utcNow(first);
        } catch (SQLException | RuntimeException e) {
            // A failed attach is retried with a new pool: this one must not keep what it opened.
            if (first != null) {
                first.close();
            }
            SimulationPool.close(pool);
            throw e;
        }
        this.keepAlive = first;
    }

    /**
     * The connections a management server of the simulation holds at most: one per worker, the
     * scanner's, the heartbeat's and one for its start-up reads.
     */
    static int connectionsPerServer(int workers) {
        return workers + 3;
    }

    /** The SQL of "now" in CloudStack's time base on this database. */
    String now() {
        return now;
    }

    static SimulationDatabase create(SimulationConfig config) throws SQLException {
        if (config.jdbcUrl() != null) {
            return new SimulationDatabase(config.jdbcUrl(), config.user(), config.password(), null,
                    connections(config));
        }
        try {
            Path dir = Files.createTempDirectory("cks-state-simulate-");
            String url = "jdbc:h2:file:" + dir.resolve("cloud") + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE"
                    + ";LOCK_TIMEOUT=10000";
            return new SimulationDatabase(url, "sa", "", dir, connections(config));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every server of a threads run shares this database, and the run's own reads and judging. */
    private static int connections(SimulationConfig config) {
        return config.servers() * connectionsPerServer(config.workersPerServer()) + 2;
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
        try (Connection c = open();
             PreparedStatement cluster = c.prepareStatement("INSERT INTO kubernetes_cluster (uuid, name, state,"
                     + " control_node_count, node_count, created, cluster_type) VALUES (?, ?, ?, 1, ?, " + now + ","
                     + " 'CloudManaged')", Statement.RETURN_GENERATED_KEYS);
             PreparedStatement vm = c.prepareStatement("INSERT INTO vm_instance (id, name, uuid, state, created)"
                     + " VALUES (?, ?, ?, ?, " + now + ")");
             PreparedStatement map = c.prepareStatement("INSERT INTO kubernetes_cluster_vm_map (cluster_id, vm_id,"
                     + " control_node) VALUES (?, ?, ?)")) {
            c.setAutoCommit(false);
            long vmId = 1000;
            for (int i = 0; i < initialStates.size(); i++) {
                String state = initialStates.get(i);
                String uuid = String.format("00000000-0000-4000-8000-%012d", i);
                cluster.setString(1, uuid);
                cluster.setString(2, "k8s-" + i);
                cluster.setString(3, state);
                cluster.setInt(4, VMS_PER_CLUSTER - 1);
                cluster.executeUpdate();
                long id;
                try (ResultSet keys = cluster.getGeneratedKeys()) {
                    keys.next();
                    id = keys.getLong(1);
                }
                String vmState = "Running".equals(state) ? "Running" : "Stopped";
                for (int n = 0; n < VMS_PER_CLUSTER; n++, vmId++) {
                    vm.setLong(1, vmId);
                    vm.setString(2, "k8s-" + i + "-node-" + n);
                    vm.setString(3, String.format("10000000-0000-4000-8000-%012d", vmId));
                    vm.setString(4, vmState);
                    vm.executeUpdate();
                    map.setLong(1, id);
                    map.setLong(2, vmId);
                    map.setInt(3, n == 0 ? 1 : 0);
                    map.executeUpdate();
                }
                clusters.add(new SimCluster(i, id, uuid, state));
            }
            c.commit();
            c.setAutoCommit(true);
        }
        return clusters;
    }

    /** Writes the job IN_PROGRESS as CloudStack does before the worker runs. */
    long insertJob(long msid, ScriptedOperation op, SimCluster cluster) throws SQLException {
        try (Connection c = open();
             PreparedStatement ps = c.prepareStatement("INSERT INTO async_job (uuid, job_cmd, job_cmd_info,"
                     + " job_status, instance_type, instance_id, job_init_msid, job_executing_msid, created,"
                     + " last_updated) VALUES (?, ?, ?, 0, 'KubernetesCluster', ?, ?, ?, " + now + ", " + now + ")",
                     Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, String.format("20000000-0000-4000-8000-%012d", op.index()));
            ps.setString(2, op.kind().jobCmd);
            ps.setString(3, "{\"id\":\"" + cluster.uuid() + "\",\"ctxUserId\":\"2\",\"httpmethod\":\"GET\"}");
            if (op.legacyJob()) {
                ps.setNull(4, java.sql.Types.BIGINT);
            } else {
                ps.setLong(4, cluster.id());
            }
            ps.setLong(5, msid);
            ps.setLong(6, msid);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    void finishJob(long jobId, long msid, boolean succeeded) throws SQLException {
        try (Connection c = open();
             PreparedStatement ps = c.prepareStatement("UPDATE async_job SET job_status = ?, job_result_code = ?,"
                     + " job_complete_msid = ?, last_updated = " + now + ", removed = " + now + " WHERE id = ? AND job_status = 0")) {
            ps.setInt(1, succeeded ? 1 : 2);
            ps.setInt(2, succeeded ? 0 : 530);
            ps.setLong(3, msid);
            ps.setLong(4, jobId);
            ps.executeUpdate();
        }
    }

    /** What CloudStack does for a server that starts again: its unfinished jobs fail with 530. */
    int failJobsOfRestartedServer(long msid, long newRunid) throws SQLException {
        try (Connection c = open();
             PreparedStatement jobs = c.prepareStatement("UPDATE async_job SET job_status = 2, job_result_code = 530,"
                     + " job_result = 'job cancelled because of management server restart or shutdown',"
                     + " job_complete_msid = ?, last_updated = " + now + " WHERE job_executing_msid = ? AND job_status = 0");
             PreparedStatement up = c.prepareStatement("UPDATE mshost SET runid = ?, state = 'Up', last_update = " + now
                     + " WHERE msid = ?")) {
            jobs.setLong(1, msid);
            jobs.setLong(2, msid);
            int failed = jobs.executeUpdate();
            up.setLong(1, newRunid);
            up.setLong(2, msid);
            up.executeUpdate();
            return failed;
        }
    }

    void registerServer(long msid, long runid, String name) throws SQLException {
        execute("INSERT INTO mshost (msid, runid, name, state, last_update) VALUES (?, ?, ?, 'Up', " + now + ")", msid,
                runid, name);
    }

    /** A live server's heartbeat, in database time. */
    void heartbeat(long msid, long runid) throws SQLException {
        execute("UPDATE mshost SET last_update = " + now + " WHERE msid = ? AND runid = ? AND state = 'Up'", msid, runid);
    }

    /** Sets a global setting as CloudStack stores it. */
    void setting(String name, String value) throws SQLException {
        execute("DELETE FROM configuration WHERE name = ?", name);
        execute("INSERT INTO configuration (category, instance, component, name, `value`, default_value)"
                + " VALUES ('Advanced', 'DEFAULT', 'management-server', ?, ?, ?)", name, value, value);
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

    void markServerDown(long msid) throws SQLException {
        execute("UPDATE mshost SET state = 'Down' WHERE msid = ?", msid);
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

    /** Every recorded change, in order: cluster id, from, event, to. */
    List<String[]> history() throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Connection c = open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT cluster_id, from_state, event, to_state FROM cks_state_history"
                     + " ORDER BY id")) {
            while (rs.next()) {
                out.add(new String[] {Long.toString(rs.getLong(1)), rs.getString(2).strip(), rs.getString(3),
                    rs.getString(4).strip()});
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
