// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.cloudstack.kubernetes.state.internal.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.internal.ClusterCommands;
import org.apache.cloudstack.kubernetes.state.internal.DatabaseClock;

/**
 * The one kit that writes CloudStack rows for the tests, with the values a management server
 * writes: on CloudStack's own database ({@code scripts/cloudstack-db.sh}) and on H2's stand-in.
 * Where CloudStack's database asks for parent rows (a zone, a service offering, a Kubernetes
 * version) the kit writes them once; the stand-in has no foreign keys.
 *
 * <p>Sources of the values: {@code KubernetesClusterVO} and {@code KubernetesClusterManagerImpl}
 * (clusters), {@code VMInstanceVO}/{@code UserVmVO} (node VMs), {@code ApiServer.queueCommand} and
 * {@code AsyncJobVO} (jobs, see {@link JobShape}), {@code ManagementServerHostVO} and
 * {@code ClusterManagerImpl} (mshost), {@code ConfigDepotImpl} (settings). Every time column is
 * written in CloudStack's time base ({@link DatabaseClock}).
 */
public final class CloudStackRows {
    /** The admin account and its user, domain ROOT: rows every CloudStack database has. */
    public static final long ACCOUNT_ID = 2;
    public static final long USER_ID = 2;
    public static final long DOMAIN_ID = 1;
    /** The kit's zone, service offering and Kubernetes version. */
    public static final long ZONE_ID = 1;
    public static final long SERVICE_OFFERING_ID = 1;
    public static final long KUBERNETES_VERSION_ID = 1;
    /** "SystemVM Template (KVM)" of templates.sql, "Debian GNU/Linux 11 (64-bit)" of the guest OS list. */
    public static final long TEMPLATE_ID = 3;
    public static final long GUEST_OS_ID = 311;
    /** A management server id as a MAC address makes one. */
    public static final long MSID = 345049103441L;

    /**
     * The settings the tests write: none is in a fresh database (a management server adds them at
     * its first start), so {@link #reset} deletes them. Writing any other is refused.
     */
    public static final Set<String> SETTINGS = Set.of(CloudStackConfiguration.HEARTBEAT_THRESHOLD, "job.expire.minutes",
            "cloud.kubernetes.cluster.start.timeout", "cloud.kubernetes.cluster.scale.timeout",
            "cloud.kubernetes.cluster.upgrade.timeout", org.apache.cloudstack.kubernetes.state.StateMode.CONFIG_KEY);

    /** The tables the kit writes, children first (the order {@link #reset} deletes in). */
    private static final List<String> WRITTEN = List.of("kubernetes_cluster_vm_map", "user_vm", "vm_instance",
            "sync_queue_item", "sync_queue", "async_job", "mshost", "kubernetes_cluster");

    private final ConnectionSource source;

    /** Each write on a connection of its own, committed. */
    public CloudStackRows(ConnectionSource source) {
        this.source = source;
    }

    /** Every write on {@code c}, in its transaction (the caller commits and closes it). */
    public static CloudStackRows on(Connection c) {
        return new CloudStackRows(SharedConnection.of(c, false));
    }

    /** True on CloudStack's own database (it has a zone table), false on H2's stand-in. */
    public static boolean isCloudStackDatabase(Connection c) throws SQLException {
        return CloudStackSchema.tableExists(c, "data_center");
    }

    /**
     * Deletes what the kit and the tests wrote: every cluster, node VM, job, sync queue and its
     * items, and management server, and the {@link #SETTINGS}; the rows CloudStack's own SQL wrote
     * stay, as do the zone, service offering and Kubernetes version the kit writes once. On CloudStack's
     * database, checks first that it is one (version 4.22.0.0): else it fails naming the script.
     */
    public static void reset(Connection c) throws SQLException {
        if (isCloudStackDatabase(c)) {
            requireCloudStackVersion(c);
        }
        try (Statement st = c.createStatement()) {
            for (String table : WRITTEN) {
                if (CloudStackSchema.tableExists(c, table)) {
                    st.executeUpdate("DELETE FROM " + table);
                }
            }
            st.executeUpdate("DELETE FROM configuration WHERE name IN (" + SETTINGS.stream().map(k -> "'" + k + "'")
                    .collect(Collectors.joining(", ")) + ")");
        }
        release(c, RELEASE);
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    /** The release of the tests' database: CloudStack's, as scripts/cloudstack-db.sh builds main's. */
    public static final String RELEASE = "4.22.0.0";

    private static void requireCloudStackVersion(Connection c) throws SQLException {
        boolean through = false;
        if (CloudStackSchema.tableExists(c, "version")) {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM version WHERE version = ? AND step = 'Complete'")) {
                ps.setString(1, RELEASE);
                try (ResultSet rs = ps.executeQuery()) {
                    through = rs.next();
                }
            }
        }
        if (!through) {
            throw new IllegalStateException("the test database is not CloudStack's " + RELEASE + " (its version table has"
                    + " no Complete " + RELEASE + "): load it with scripts/cloudstack-db.sh load (make java-test does)");
        }
    }

    /**
     * The database's CloudStack release becomes {@code version}: its `version` row, Complete, is the
     * newest (as an upgrade to it, or CloudStack's NoopDbUpgrade, writes one); the older rows stay.
     */
    public static void release(Connection c, String version) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM version WHERE version = ?");
                PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO version (version, updated, step) VALUES (?, ?, 'Complete')")) {
            delete.setString(1, version);
            delete.executeUpdate();
            insert.setString(1, version);
            insert.setTimestamp(2, new java.sql.Timestamp(System.currentTimeMillis()));
            insert.executeUpdate();
        }
    }

    // ---- parents CloudStack's foreign keys ask for

    /** The zone, service offering and Kubernetes version the kit's clusters and VMs name (once). */
    public void parents() throws SQLException {
        try (Connection c = source.open()) {
            parents(c);
        }
    }

    private static void parents(Connection c) throws SQLException {
        if (!isCloudStackDatabase(c)) {
            return;
        }
        String now = DatabaseClock.utcNow(c);
        // A zone as the zone wizard creates one, a service offering, and a Kubernetes version.
        execute(c, "INSERT INTO data_center (id, name, uuid, dns1, internal_dns1, networktype, allocation_state,"
                + " domain_id, is_local_storage_enabled, is_security_group_enabled) SELECT " + ZONE_ID + ", 'zone-1',"
                + " UUID(), '8.8.8.8', '10.0.0.2', 'Advanced', 'Enabled', NULL, 0, 0 FROM DUAL"
                + " WHERE NOT EXISTS (SELECT 1 FROM data_center WHERE id = " + ZONE_ID + ")");
        execute(c, "INSERT INTO service_offering (id, uuid, name, cpu, speed, ram_size, state, created)"
                + " SELECT " + SERVICE_OFFERING_ID + ", UUID(), 'CKS Medium', 2, 1000, 4096, 'Active', " + now + " FROM DUAL"
                + " WHERE NOT EXISTS (SELECT 1 FROM service_offering WHERE id = " + SERVICE_OFFERING_ID + ")");
        execute(c, "INSERT INTO kubernetes_supported_version (id, uuid, name, semantic_version, iso_id, zone_id, state,"
                + " min_cpu, min_ram_size, created) SELECT " + KUBERNETES_VERSION_ID + ", UUID(), 'v1.33.1', '1.33.1', "
                + TEMPLATE_ID + ", NULL, 'Enabled', 2, 2048, " + now + " FROM DUAL"
                + " WHERE NOT EXISTS (SELECT 1 FROM kubernetes_supported_version WHERE id = " + KUBERNETES_VERSION_ID + ")");
    }

    // ---- clusters

    /** A CloudManaged cluster in {@code state}: build it, then {@link Cluster#insert()}. */
    public Cluster cluster(String state) {
        return new Cluster(state);
    }

    /** A CloudManaged cluster named {@code name} with the uuid "uuid-NAME"; its id. */
    public long cluster(String name, String state) throws SQLException {
        return cluster(name, "uuid-" + name, state, false);
    }

    /** A CloudManaged cluster with this name and uuid, soft-deleted or not; its id. */
    public long cluster(String name, String uuid, String state, boolean removed) throws SQLException {
        return cluster(state).name(name).uuid(uuid).removed(removed).insert();
    }

    /** One {@code kubernetes_cluster} row: 1 control node, 1 worker, a random uuid and name, unless set. */
    public final class Cluster {
        private final String state;
        private String uuid = UUID.randomUUID().toString();
        private String name;
        private String type = "CloudManaged";
        private int controls = 1;
        private int workers = 1;
        private Integer etcd;
        private boolean removed;

        private Cluster(String state) {
            this.state = state;
        }

        public Cluster uuid(String clusterUuid) {
            this.uuid = clusterUuid;
            return this;
        }

        public Cluster name(String clusterName) {
            this.name = clusterName;
            return this;
        }

        /** cluster_type: CloudManaged or ExternalManaged. */
        public Cluster type(String clusterType) {
            this.type = clusterType;
            return this;
        }

        public Cluster nodes(int controlNodes, int workerNodes) {
            this.controls = controlNodes;
            this.workers = workerNodes;
            return this;
        }

        /** etcd_node_count (4.21+); null as CloudStack writes it for a cluster without etcd nodes. */
        public Cluster etcd(Integer etcdNodes) {
            this.etcd = etcdNodes;
            return this;
        }

        /** Soft-deleted, as the garbage collector leaves a destroyed cluster. */
        public Cluster removed(boolean soft) {
            this.removed = soft;
            return this;
        }

        /** Writes the row; its id. */
        public long insert() throws SQLException {
            try (Connection c = source.open()) {
                parents(c);
                return insertReturningId(c, "kubernetes_cluster", row(), "created", removed);
            }
        }

        private Map<String, Object> row() {
            boolean cloudManaged = "CloudManaged".equals(type);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("uuid", uuid);
            row.put("name", name != null ? name : "k8s-" + uuid.substring(0, 8));
            row.put("description", "Kubernetes cluster");
            row.put("zone_id", ZONE_ID);
            row.put("kubernetes_version_id", cloudManaged ? KUBERNETES_VERSION_ID : null);
            row.put("service_offering_id", cloudManaged ? SERVICE_OFFERING_ID : null);
            row.put("template_id", cloudManaged ? TEMPLATE_ID : null);
            row.put("control_node_count", controls);
            row.put("node_count", workers);
            row.put("account_id", ACCOUNT_ID);
            row.put("domain_id", DOMAIN_ID);
            row.put("state", state);
            row.put("cores", 2L * (controls + workers));
            row.put("memory", 4096L * (controls + workers));
            row.put("node_root_disk_size", 8L);
            row.put("gc", 1);
            row.put("cluster_type", type);
            if (etcd != null) {
                row.put("etcd_node_count", etcd);
            }
            return row;
        }
    }

    /** A node VM of a cluster: its {@code vm_instance} (and {@code user_vm}) row and its map row. */
    public void vm(long clusterId, long vmId, String state, NodeRole role) throws SQLException {
        try (Connection c = source.open()) {
            vm(c, clusterId, vmId, state, role);
        }
    }

    private static void vm(Connection c, long clusterId, long vmId, String state, NodeRole role) throws SQLException {
        parents(c);
        Map<String, Object> vm = new LinkedHashMap<>();
        vm.put("id", vmId);
        vm.put("name", "k8s-node-" + vmId);
        vm.put("uuid", UUID.randomUUID().toString());
        vm.put("instance_name", "i-" + ACCOUNT_ID + "-" + vmId + "-VM");
        vm.put("state", state);
        vm.put("vm_template_id", TEMPLATE_ID);
        vm.put("guest_os_id", GUEST_OS_ID);
        vm.put("data_center_id", ZONE_ID);
        vm.put("vnc_password", "vnc" + vmId);
        vm.put("type", "User");
        vm.put("vm_type", "User");
        vm.put("account_id", ACCOUNT_ID);
        vm.put("domain_id", DOMAIN_ID);
        vm.put("service_offering_id", SERVICE_OFFERING_ID);
        vm.put("hypervisor_type", "KVM");
        vm.put("user_id", USER_ID);
        insertRow(c, "vm_instance", vm, Map.of("created", DatabaseClock.utcNow(c)));
        if (CloudStackSchema.tableExists(c, "user_vm")) {
            execute(c, "INSERT INTO user_vm (id, display_name) VALUES (" + vmId + ", 'k8s-node-" + vmId + "')");
        }
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("cluster_id", clusterId);
        map.put("vm_id", vmId);
        map.put("control_node", role == NodeRole.CONTROL ? 1 : 0);
        map.put("etcd_node", role == NodeRole.ETCD ? 1 : 0);
        map.put("external_node", role == NodeRole.EXTERNAL ? 1 : 0);
        insertRow(c, "kubernetes_cluster_vm_map", map, Map.of());
    }

    /** What a node VM is in its cluster ({@code kubernetes_cluster_vm_map}'s flags). */
    public enum NodeRole { CONTROL, WORKER, ETCD, EXTERNAL }

    // ---- async jobs

    /** An async job: IN_PROGRESS, the current (4.19.1-4.22) shape of a scale, on {@link #MSID}, unless set. */
    public Job job() {
        return new Job();
    }

    /** One {@code async_job} row as {@code ApiServer.queueCommand} and the job's end write it. */
    public final class Job {
        private String cmd = ClusterCommands.SCALE;
        private JobShape shape = JobShape.CURRENT;
        private Long clusterId;
        private String clusterUuid;
        private boolean instanceTypeSet;
        private String instanceType;
        private boolean instanceIdSet;
        private Long instanceId;
        private String cmdInfo;
        private int status;
        private Long initMsid = MSID;
        private Long executingMsid = MSID;
        private long ageSeconds;
        private Integer resultCode;
        private String result;
        private boolean removed;
        private Long id;

        private Job() {
        }

        /** This id rather than the next one the table gives (a replay keeps the recorded ids). */
        public Job id(long jobId) {
            this.id = jobId;
            return this;
        }

        public Job cmd(String jobCmd) {
            this.cmd = jobCmd;
            return this;
        }

        /** Which release wrote the job (instance_type, instance_id and the cluster's place in job_cmd_info). */
        public Job shape(JobShape jobShape) {
            this.shape = jobShape;
            return this;
        }

        /** The cluster the command acts on (id and uuid): its instance_id and job_cmd_info by the shape. */
        public Job cluster(long id, String uuid) {
            this.clusterId = id;
            this.clusterUuid = uuid;
            return this;
        }

        /** The cluster recorded in instance_id (job_cmd_info as set, or without the cluster). */
        public Job cluster(long id) {
            return instance(id);
        }

        /** instance_type as written, overriding the shape's (null: NULL). */
        public Job instanceType(String type) {
            this.instanceTypeSet = true;
            this.instanceType = type;
            return this;
        }

        /** instance_id as written, overriding the shape's (null: NULL). */
        public Job instance(Long id) {
            this.instanceIdSet = true;
            this.instanceId = id;
            return this;
        }

        /** job_cmd_info as written, overriding the shape's. */
        public Job cmdInfo(String json) {
            this.cmdInfo = json;
            return this;
        }

        public Job status(int jobStatus) {
            this.status = jobStatus;
            return this;
        }

        /** Initiated and executed on this server. */
        public Job msid(long server) {
            this.initMsid = server;
            this.executingMsid = server;
            return this;
        }

        /** job_init_msid and job_executing_msid apart (a job queued on one server and run on another). */
        public Job msids(Long init, Long executing) {
            this.initMsid = init;
            this.executingMsid = executing;
            return this;
        }

        /** Created this many seconds ago, by the database's clock. */
        public Job age(long seconds) {
            this.ageSeconds = seconds;
            return this;
        }

        /** job_result_code and job_result, as the job's end wrote them. */
        public Job result(Integer code, String text) {
            this.resultCode = code;
            this.result = text;
            return this;
        }

        /** Soft-deleted, as CloudStack leaves finished jobs. */
        public Job removed(boolean soft) {
            this.removed = soft;
            return this;
        }

        /** Writes the row; its id. */
        public long insert() throws SQLException {
            try (Connection c = source.open()) {
                String now = DatabaseClock.utcNow(c);
                String created = "TIMESTAMPADD(SECOND, " + (-ageSeconds) + ", " + now + ")";
                return insertReturningId(c, "async_job", row(), Map.of("created", created, "last_updated", now), removed);
            }
        }

        private Map<String, Object> row() {
            Map<String, Object> row = new LinkedHashMap<>();
            if (id != null) {
                row.put("id", id);
            }
            row.put("uuid", UUID.randomUUID().toString());
            row.put("user_id", USER_ID);
            row.put("account_id", ACCOUNT_ID);
            row.put("instance_type", instanceTypeSet ? instanceType : shape.instanceType(cmd));
            row.put("instance_id", instanceIdSet ? instanceId : clusterId == null ? null : shape.instanceId(cmd, clusterId));
            row.put("job_cmd", cmd);
            row.put("job_cmd_info", cmdInfo != null ? cmdInfo
                    : clusterId == null ? JobShape.cmdInfo(cmd, null, null) : JobShape.cmdInfo(cmd, clusterId, clusterUuid));
            row.put("job_cmd_ver", 1);
            row.put("job_status", status);
            row.put("job_process_status", 0);
            row.put("job_result_code", resultCode != null ? resultCode : 0);
            row.put("job_result", result);
            row.put("job_init_msid", initMsid);
            row.put("job_executing_msid", executingMsid);
            row.put("related", "");
            row.put("job_type", "AsyncJob");
            row.put("job_dispatcher", "ApiAsyncJobDispatcher");
            row.put("job_pending_signals", 0);
            return row;
        }
    }

    // ---- management servers

    /** A management server row: Up with a fresh heartbeat, runid 1, unless set. */
    public Server mshost(long msid) {
        return new Server(msid);
    }

    /** A management server in {@code state} with this runid and a fresh heartbeat. */
    public void mshost(long msid, String state, long runid) throws SQLException {
        mshost(msid).state(state).runid(runid).insert();
    }

    /** One {@code mshost} row as {@code ClusterManagerImpl} writes it at start and at every heartbeat. */
    public final class Server {
        private final long msid;
        private long runid = 1;
        private String state = "Up";
        private String name;
        private long heartbeatAgeSeconds;
        private boolean removed;

        private Server(long msid) {
            this.msid = msid;
        }

        public Server runid(long run) {
            this.runid = run;
            return this;
        }

        /** Up, Down, PreparingForMaintenance, Maintenance, PreparingForShutDown, ReadyToShutDown, ShuttingDown. */
        public Server state(String msState) {
            this.state = msState;
            return this;
        }

        public Server name(String hostName) {
            this.name = hostName;
            return this;
        }

        /** The last heartbeat this many seconds ago, by the database's clock. */
        public Server heartbeatAge(long seconds) {
            this.heartbeatAgeSeconds = seconds;
            return this;
        }

        /** Removed (an operator deleted the server, or CloudStack removed a departed one). */
        public Server removed(boolean soft) {
            this.removed = soft;
            return this;
        }

        public void insert() throws SQLException {
            try (Connection c = source.open()) {
                String now = DatabaseClock.utcNow(c);
                Map<String, String> times = new LinkedHashMap<>();
                times.put("last_update", "TIMESTAMPADD(SECOND, " + (-heartbeatAgeSeconds) + ", " + now + ")");
                if (removed) {
                    times.put("removed", now);
                }
                insertRow(c, "mshost", row(), times);
            }
        }

        private Map<String, Object> row() {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("msid", msid);
            row.put("runid", runid);
            row.put("name", name != null ? name : "ms-" + msid);
            row.put("uuid", UUID.randomUUID().toString());
            row.put("state", state);
            row.put("version", "4.22.0.0");
            row.put("service_ip", "127.0.0.1");
            row.put("service_port", 9090);
            row.put("alert_count", 0);
            return row;
        }
    }

    // ---- settings

    /**
     * A global setting as {@code ConfigDepotImpl} writes a ConfigKey at start: {@code value} null
     * means unset ({@code default_value} applies). One of {@link #SETTINGS}.
     */
    public void setting(String name, String value, String defaultValue) throws SQLException {
        if (!SETTINGS.contains(name)) {
            throw new IllegalArgumentException("the kit writes only the settings reset deletes: " + SETTINGS + ", not " + name);
        }
        try (Connection c = source.open()) {
            setting(c, name, value, defaultValue);
        }
    }

    private static void setting(Connection c, String name, String value, String defaultValue) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("category", "Advanced");
        row.put("instance", "DEFAULT");
        row.put("component", name.startsWith("cloud.kubernetes") ? "KubernetesClusterManagerImpl" : "management-server");
        row.put("name", name);
        row.put("value", value);
        row.put("default_value", defaultValue);
        row.put("description", name);
        row.put("is_dynamic", 1);
        if (TableColumns.of(c, "configuration").contains("scope")) {
            row.put("scope", isBigint(c) ? (Object) 1L : "Global"); // a bitmask since 4.21 (ConfigKey.Scope.Global)
        }
        insertRow(c, "configuration", row, Map.of("updated", DatabaseClock.utcNow(c)));
    }

    private static boolean isBigint(Connection c) throws SQLException {
        try (ResultSet rs = c.getMetaData().getColumns(c.getCatalog(), null, "configuration", "scope")) {
            return rs.next() && rs.getString("TYPE_NAME").toLowerCase(Locale.ROOT).contains("bigint");
        }
    }

    // ---- cks-state's own columns, and a reader

    /** Holds a cluster as a fenced-mode operation does: version, owner msid and runid, job. */
    public void hold(long clusterId, long version, long msid, long runid, long jobId) throws SQLException {
        try (Connection c = source.open()) {
            execute(c, "UPDATE kubernetes_cluster SET state_version = " + version + ", op_owner_msid = " + msid
                    + ", op_owner_runid = " + runid + ", op_job_id = " + jobId + " WHERE id = " + clusterId);
        }
    }

    /** The stored state of a cluster. */
    public String state(long clusterId) throws SQLException {
        try (Connection c = source.open(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT state FROM kubernetes_cluster WHERE id = " + clusterId)) {
            rs.next();
            return rs.getString(1).strip();
        }
    }

    // ---- writing

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    /** Inserts {@code values}, and {@code sqlValues} as SQL expressions (times). */
    private static void insertRow(Connection c, String table, Map<String, Object> values, Map<String, String> sqlValues)
            throws SQLException {
        try (PreparedStatement ps = prepare(c, table, values, sqlValues, false)) {
            ps.executeUpdate();
        }
    }

    private static long insertReturningId(Connection c, String table, Map<String, Object> values, String createdColumn,
            boolean removed) throws SQLException {
        return insertReturningId(c, table, values, Map.of(createdColumn, DatabaseClock.utcNow(c)), removed);
    }

    private static long insertReturningId(Connection c, String table, Map<String, Object> values,
            Map<String, String> sqlValues, boolean removed) throws SQLException {
        Map<String, String> times = new LinkedHashMap<>(sqlValues);
        if (removed) {
            times.put("removed", DatabaseClock.utcNow(c));
        }
        try (PreparedStatement ps = prepare(c, table, values, times, true)) {
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    private static PreparedStatement prepare(Connection c, String table, Map<String, Object> values, Map<String, String> sqlValues,
            boolean keys) throws SQLException {
        StringBuilder cols = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (String col : values.keySet()) {
            cols.append(cols.length() == 0 ? "" : ", ").append('`').append(col).append('`');
            marks.append(marks.length() == 0 ? "?" : ", ?");
        }
        for (Map.Entry<String, String> e : sqlValues.entrySet()) {
            cols.append(", `").append(e.getKey()).append('`');
            marks.append(", ").append(e.getValue());
        }
        String sql = "INSERT INTO " + table + " (" + cols + ") VALUES (" + marks + ")";
        PreparedStatement ps = keys ? c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS) : c.prepareStatement(sql);
        int i = 1;
        for (Object v : values.values()) {
            ps.setObject(i++, v);
        }
        return ps;
    }
}
