// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

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
 * written in CloudStack's time base ({@link RowWriter#utcNow}).
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
    public static final Set<String> SETTINGS = Set.of("cluster.heartbeat.threshold", "job.expire.minutes",
            "cloud.kubernetes.cluster.start.timeout", "cloud.kubernetes.cluster.scale.timeout",
            "cloud.kubernetes.cluster.upgrade.timeout", "cloud.kubernetes.cluster.state.mode");

    /** The tables the kit writes, children first (the order {@link #reset} deletes in). */
    private static final List<String> WRITTEN = List.of("kubernetes_cluster_vm_map", "user_vm", "vm_instance",
            "sync_queue_item", "sync_queue", "async_job", "mshost", "kubernetes_cluster");

    private final ConnectionOpener source;

    /** Each write on a connection of its own, committed. */
    public CloudStackRows(ConnectionOpener source) {
        this.source = source;
    }

    /** Every write on {@code c}, in its transaction (the caller commits and closes it). */
    public static CloudStackRows on(Connection c) {
        return new CloudStackRows(SharedConnection.of(c, false));
    }

    /** True on CloudStack's own database (it has a zone table), false on H2's stand-in. */
    public static boolean isCloudStackDatabase(Connection c) throws SQLException {
        return RowWriter.tableExists(c, "data_center");
    }

    /**
     * Deletes what the kit and the tests wrote: every cluster, node VM, job, sync queue and its
     * items, and management server, and the {@link #SETTINGS}; the rows CloudStack's own SQL wrote
     * stay, as do the zone, service offering and Kubernetes version the kit writes once. On CloudStack's
     * database, checks first that it is one (version 4.23.0.0): else it fails naming the script.
     */
    public static void reset(Connection c) throws SQLException {
        if (isCloudStackDatabase(c)) {
            requireCloudStackVersion(c);
        }
        try (Statement st = c.createStatement()) {
            for (String table : WRITTEN) {
                if (RowWriter.tableExists(c, table)) {
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
    public static final String RELEASE = "4.23.0.0";

    private static void requireCloudStackVersion(Connection c) throws SQLException {
        boolean through = false;
        if (RowWriter.tableExists(c, "version")) {
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

    static void parents(Connection c) throws SQLException {
        if (!isCloudStackDatabase(c)) {
            return;
        }
        String now = RowWriter.utcNow(c);
        // A zone as the zone wizard creates one, a service offering, and a Kubernetes version.
        RowWriter.execute(c, "INSERT INTO data_center (id, name, uuid, dns1, internal_dns1, networktype, allocation_state,"
                + " domain_id, is_local_storage_enabled, is_security_group_enabled) SELECT " + ZONE_ID + ", 'zone-1',"
                + " UUID(), '8.8.8.8', '10.0.0.2', 'Advanced', 'Enabled', NULL, 0, 0 FROM DUAL"
                + " WHERE NOT EXISTS (SELECT 1 FROM data_center WHERE id = " + ZONE_ID + ")");
        RowWriter.execute(c, "INSERT INTO service_offering (id, uuid, name, cpu, speed, ram_size, state, created)"
                + " SELECT " + SERVICE_OFFERING_ID + ", UUID(), 'CKS Medium', 2, 1000, 4096, 'Active', " + now + " FROM DUAL"
                + " WHERE NOT EXISTS (SELECT 1 FROM service_offering WHERE id = " + SERVICE_OFFERING_ID + ")");
        RowWriter.execute(c, "INSERT INTO kubernetes_supported_version (id, uuid, name, semantic_version, iso_id, zone_id, state,"
                + " min_cpu, min_ram_size, created) SELECT " + KUBERNETES_VERSION_ID + ", UUID(), 'v1.33.1', '1.33.1', "
                + TEMPLATE_ID + ", NULL, 'Enabled', 2, 2048, " + now + " FROM DUAL"
                + " WHERE NOT EXISTS (SELECT 1 FROM kubernetes_supported_version WHERE id = " + KUBERNETES_VERSION_ID + ")");
    }

    // ---- clusters

    /** A CloudManaged cluster in {@code state}: build it, then {@link ClusterInsert#insert()}. */
    public ClusterInsert cluster(String state) {
        return new ClusterInsert(source, state);
    }

    /** A CloudManaged cluster named {@code name} with the uuid "uuid-NAME"; its id. */
    public long cluster(String name, String state) throws SQLException {
        return cluster(name, "uuid-" + name, state, false);
    }

    /** A CloudManaged cluster with this name and uuid, soft-deleted or not; its id. */
    public long cluster(String name, String uuid, String state, boolean removed) throws SQLException {
        return cluster(state).name(name).uuid(uuid).removed(removed).insert();
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
        RowWriter.insertRow(c, "vm_instance", vm, Map.of("created", RowWriter.utcNow(c)));
        if (RowWriter.tableExists(c, "user_vm")) {
            RowWriter.execute(c, "INSERT INTO user_vm (id, display_name) VALUES (" + vmId + ", 'k8s-node-" + vmId + "')");
        }
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("cluster_id", clusterId);
        map.put("vm_id", vmId);
        map.put("control_node", role == NodeRole.CONTROL ? 1 : 0);
        map.put("etcd_node", role == NodeRole.ETCD ? 1 : 0);
        map.put("external_node", role == NodeRole.EXTERNAL ? 1 : 0);
        RowWriter.insertRow(c, "kubernetes_cluster_vm_map", map, Map.of());
    }

    /** What a node VM is in its cluster ({@code kubernetes_cluster_vm_map}'s flags). */
    public enum NodeRole { CONTROL, WORKER, ETCD, EXTERNAL }

    // ---- async jobs

    /** An async job: IN_PROGRESS, the current (4.19.1-4.22) shape of a scale, on {@link #MSID}, unless set. */
    public JobInsert job() {
        return new JobInsert(source);
    }


    // ---- management servers

    /** A management server row: Up with a fresh heartbeat, runid 1, unless set. */
    public ServerInsert mshost(long msid) {
        return new ServerInsert(source, msid);
    }

    /** A management server in {@code state} with this runid and a fresh heartbeat. */
    public void mshost(long msid, String state, long runid) throws SQLException {
        mshost(msid).state(state).runid(runid).insert();
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
        String scope = RowWriter.columnType(c, "configuration", "scope");
        if (scope != null) {
            row.put("scope", scope.contains("bigint") ? (Object) 1L : "Global"); // a bitmask since 4.21 (ConfigKey.Scope.Global)
        }
        RowWriter.insertRow(c, "configuration", row, Map.of("updated", RowWriter.utcNow(c)));
    }

    // ---- cks-state's own columns, and a reader

    /** Holds a cluster as a fenced-mode operation does: version, owner msid and runid, job. */
    public void hold(long clusterId, long version, long msid, long runid, long jobId) throws SQLException {
        try (Connection c = source.open()) {
            RowWriter.execute(c, "UPDATE kubernetes_cluster SET state_version = " + version + ", op_owner_msid = " + msid
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
}
