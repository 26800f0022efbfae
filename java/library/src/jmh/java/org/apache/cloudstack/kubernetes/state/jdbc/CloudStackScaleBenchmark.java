// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;
import org.apache.cloudstack.kubernetes.state.testkit.SharedConnection;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * One status scanner pass (orphan recovery, then the Alert reconciliation) on CloudStack's own
 * database ({@code scripts/cloudstack-db.sh load}) at scale: N clusters (3% stuck in an operation's
 * state with no job, 2% busy with a live job in each release's shape), two node VMs each, and J
 * async jobs of every kind (finished and soft-deleted: every CKS cluster command in the three
 * shapes, VM, volume and snapshot commands) of which a few hundred are IN_PROGRESS. Reported per
 * job count: statements, rows read (the server's {@code Handler_read_*} counters of the pass's
 * connection, before and after), and the median time; and the plans of the pass's SELECTs
 * ({@code EXPLAIN}): no full scan of {@code async_job} or {@code vm_instance}. Targets: no such full
 * scan; the rows read at the largest job count within 10% of those at the smallest.
 *
 * <p>Usage: {@code CloudStackScaleBenchmark <jdbc-url> <clusters> <job counts, ascending> <timed passes> [summary.md]}.
 * The kit's rows are deleted first: point it at a throwaway server only.
 */
public final class CloudStackScaleBenchmark {
    private static final int BATCH = 1_000;
    private static final String[] OTHER_COMMANDS = {
        "org.apache.cloudstack.api.command.user.vm.DeployVMCmd", "VirtualMachine",
        "org.apache.cloudstack.api.command.user.vm.StartVMCmd", "VirtualMachine",
        "org.apache.cloudstack.api.command.user.vm.StopVMCmd", "VirtualMachine",
        "org.apache.cloudstack.api.command.user.volume.CreateVolumeCmd", "Volume",
        "org.apache.cloudstack.api.command.user.volume.AttachVolumeCmd", "Volume",
        "org.apache.cloudstack.api.command.user.snapshot.CreateSnapshotCmd", "Snapshot",
    };
    /** Tables a pass must never read whole. */
    private static final Set<String> NEVER_FULL = Set.of("async_job", "vm_instance", "vm", "j");

    private final String url;
    private final ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);
    private final List<State> orphanStates = new ArrayList<>(machine.orphanStates());
    private final List<long[]> stuck = new ArrayList<>(); // cluster id, state ordinal
    private long nextJobId = 1;

    private CloudStackScaleBenchmark(String url) {
        this.url = url;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: CloudStackScaleBenchmark <jdbc-url> <clusters> <job counts> <timed passes> [summary.md]");
            System.exit(2);
        }
        int clusters = Integer.parseInt(args[1]);
        long[] jobCounts = Arrays.stream(args[2].split(",")).mapToLong(Long::parseLong).toArray();
        String summary = new CloudStackScaleBenchmark(args[0]).run(clusters, jobCounts, Integer.parseInt(args[3]));
        System.out.println();
        System.out.println(summary);
        if (args.length > 4) {
            Files.writeString(Path.of(args[4]), summary, StandardCharsets.UTF_8);
        }
    }

    private String run(int clusters, long[] jobCounts, int passes) throws SQLException {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "Scanner pass on CloudStack's own database"
                + " (main's line, from CloudStack's SQL): %,d clusters, 2 VMs each; median of %d timed passes%n%n", clusters,
                passes));
        b.append("| async jobs | IN_PROGRESS | statements | rows read (Handler_read_*) | ms |\n|---:|---:|---:|---:|---:|\n");
        List<String> plans = new ArrayList<>();
        List<String> fullScans = new ArrayList<>();
        long firstRows = -1;
        long lastRows = -1;
        try (Connection admin = DriverManager.getConnection(url)) {
            if (!CloudStackRows.isCloudStackDatabase(admin)) {
                throw new IllegalStateException("not CloudStack's database: run scripts/cloudstack-db.sh load first");
            }
            populateClusters(admin, clusters);
            Connection real = DriverManager.getConnection(url);
            ConnectionSource pooled = SharedConnection.of(real, true)::open;
            for (long jobs : jobCounts) {
                long inProgress = populateJobs(admin, clusters, jobs);
                StatementCounter counter = new StatementCounter(pooled);
                ClusterStateScanner<State, Event> scanner = new ClusterStateScanner<>(
                        new KubernetesClusterStateDao<>(machine, counter), counter, () -> null);
                long[] ns = new long[passes];
                long rows = 0;
                int statements = 0;
                for (int pass = -1; pass < passes; pass++) {
                    reset(admin);
                    int before = counter.count();
                    long read0 = handlerReads(real);
                    long t0 = System.nanoTime();
                    RecoveryResult<State> r = scanner.recoverOrphanedOperationStates();
                    scanner.reconcileAlertClusters(id -> true);
                    long t1 = System.nanoTime();
                    rows = handlerReads(real) - read0 - showCost(real);
                    statements = counter.count() - before;
                    if (r.recoveredIds().size() != stuck.size()) {
                        throw new IllegalStateException("recovered " + r.recoveredIds().size() + ", expected " + stuck.size());
                    }
                    if (pass >= 0) {
                        ns[pass] = t1 - t0;
                    }
                }
                Arrays.sort(ns);
                b.append(String.format(Locale.ROOT, "| %,d | %,d | %d | %,d | %.1f |%n", jobs, inProgress, statements, rows,
                        ns[ns.length / 2] / 1e6));
                System.out.printf(Locale.ROOT, "%,d jobs: %d statements, %,d rows read, %.1f ms%n", jobs, statements, rows,
                        ns[ns.length / 2] / 1e6);
                firstRows = firstRows < 0 ? rows : firstRows;
                lastRows = rows;
                if (plans.isEmpty()) {
                    explain(admin, counter.statements(), plans, fullScans);
                }
            }
            real.close();
        }
        double growth = (double) lastRows / firstRows;
        b.append("\nPlans of the pass's SELECTs (EXPLAIN; `?` as 0):\n\n| statement | table | type | key | rows |\n"
                + "|---|---|---|---|---:|\n");
        plans.forEach(p -> b.append(p).append('\n'));
        b.append("\n| target | verdict | numbers |\n|---|---|---|\n");
        b.append("| no full scan of async_job or vm_instance | ").append(fullScans.isEmpty() ? "met" : "MISSED")
                .append(" | ").append(fullScans.isEmpty() ? "every read of them by an index" : String.join("; ", fullScans))
                .append(" |\n");
        b.append(String.format(Locale.ROOT, "| rows read grow with clusters and live jobs, not finished jobs (largest job"
                + " count within 10%% of the smallest) | %s | %,d -> %,d rows = %.3fx |%n",
                growth <= 1.10 ? "met" : "MISSED", firstRows, lastRows, growth));
        return b.toString();
    }

    /** The kit's rows deleted; N clusters with two node VMs each, by multi-row batches. */
    private void populateClusters(Connection c, int n) throws SQLException {
        long start = System.nanoTime();
        CloudStackRows.reset(c);
        try (Statement st = c.createStatement()) {
            st.execute("DELETE FROM user_vm");
            st.execute("DELETE FROM vm_instance");
        }
        CloudStackRows.on(c).parents();
        CloudStackRows.on(c).mshost(CloudStackRows.MSID, "Up", 1);
        SplittableRandom random = new SplittableRandom(n);
        c.setAutoCommit(false);
        try (PreparedStatement cl = c.prepareStatement("INSERT INTO kubernetes_cluster (id, uuid, name, description, zone_id,"
                + " kubernetes_version_id, service_offering_id, template_id, control_node_count, node_count, account_id,"
                + " domain_id, state, cores, memory, node_root_disk_size, created, gc, cluster_type)"
                + " VALUES (?, ?, ?, 'Kubernetes cluster', ?, ?, ?, ?, 1, 1, ?, ?, ?, 4, 8192, 8, UTC_TIMESTAMP(), 1,"
                + " 'CloudManaged')");
                PreparedStatement vm = c.prepareStatement("INSERT INTO vm_instance (id, name, uuid, instance_name, state,"
                        + " vm_template_id, guest_os_id, data_center_id, vnc_password, created, type, vm_type, account_id,"
                        + " domain_id, service_offering_id, hypervisor_type, user_id) VALUES (?, ?, UUID(), ?, ?, ?, ?, ?,"
                        + " 'vnc', UTC_TIMESTAMP(), 'User', 'User', ?, ?, ?, 'KVM', ?)");
                PreparedStatement map = c.prepareStatement("INSERT INTO kubernetes_cluster_vm_map (cluster_id, vm_id,"
                        + " control_node) VALUES (?, ?, ?)")) {
            for (long id = 1; id <= n; id++) {
                int bucket = (int) (id % 100);
                State state = bucket < 5 ? orphanStates.get(random.nextInt(orphanStates.size()))
                        : bucket < 85 ? State.Running : State.Stopped;
                if (bucket < 3) {
                    stuck.add(new long[] {id, state.ordinal()});
                }
                cl.setLong(1, id);
                cl.setString(2, uuid(id));
                cl.setString(3, "k8s-" + id);
                cl.setLong(4, CloudStackRows.ZONE_ID);
                cl.setLong(5, CloudStackRows.KUBERNETES_VERSION_ID);
                cl.setLong(6, CloudStackRows.SERVICE_OFFERING_ID);
                cl.setLong(7, CloudStackRows.TEMPLATE_ID);
                cl.setLong(8, CloudStackRows.ACCOUNT_ID);
                cl.setLong(9, CloudStackRows.DOMAIN_ID);
                cl.setString(10, state.name());
                cl.addBatch();
                for (int node = 0; node < 2; node++) {
                    long vmId = 2 * id - 1 + node;
                    vm.setLong(1, vmId);
                    vm.setString(2, "k8s-" + id + "-node-" + node);
                    vm.setString(3, "i-2-" + vmId + "-VM");
                    vm.setString(4, state == State.Stopped ? "Stopped" : "Running");
                    vm.setLong(5, CloudStackRows.TEMPLATE_ID);
                    vm.setLong(6, CloudStackRows.GUEST_OS_ID);
                    vm.setLong(7, CloudStackRows.ZONE_ID);
                    vm.setLong(8, CloudStackRows.ACCOUNT_ID);
                    vm.setLong(9, CloudStackRows.DOMAIN_ID);
                    vm.setLong(10, CloudStackRows.SERVICE_OFFERING_ID);
                    vm.setLong(11, CloudStackRows.USER_ID);
                    vm.addBatch();
                    map.setLong(1, id);
                    map.setLong(2, vmId);
                    map.setInt(3, node == 0 ? 1 : 0);
                    map.addBatch();
                }
                if (id % BATCH == 0 || id == n) {
                    cl.executeBatch();
                    vm.executeBatch();
                    map.executeBatch();
                    c.commit();
                }
            }
        } finally {
            c.setAutoCommit(true);
        }
        System.out.printf(Locale.ROOT, "populated %,d clusters, %,d VMs in %.1f s%n", n, 2L * n, (System.nanoTime() - start) / 1e9);
    }

    /**
     * Async jobs up to {@code total}: first (once) an IN_PROGRESS job for each busy cluster, in the
     * three shapes by turn, and 100 live jobs of other commands; then finished, soft-deleted jobs of
     * every kind. Returns the IN_PROGRESS count.
     */
    private long populateJobs(Connection c, int clusters, long total) throws SQLException {
        long start = System.nanoTime();
        JobShape[] shapes = JobShape.values();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO async_job (id, uuid, user_id, account_id, instance_type,"
                + " instance_id, job_cmd, job_cmd_info, job_cmd_ver, job_status, job_process_status, job_result_code,"
                + " job_result, job_init_msid, job_executing_msid, job_complete_msid, created, last_updated, removed,"
                + " related, job_type, job_dispatcher, job_pending_signals) VALUES (?, UUID(), 2, 2, ?, ?, ?, ?, 1, ?, 0,"
                + " ?, ?, ?, ?, ?, TIMESTAMPADD(SECOND, ?, UTC_TIMESTAMP()), UTC_TIMESTAMP(), ?, '', 'AsyncJob',"
                + " 'ApiAsyncJobDispatcher', 0)")) {
            int pending = 0;
            if (nextJobId == 1) {
                int turn = 0;
                for (long id = 1; id <= clusters; id++) {
                    int bucket = (int) (id % 100);
                    if (bucket >= 3 && bucket < 5) {
                        String cmd = ClusterCommandSet.OF_4_21.get(1 + turn % (ClusterCommandSet.OF_4_21.size() - 1));
                        add(ps, shapes[turn++ % shapes.length], cmd, id, false);
                        pending = flush(ps, c, pending);
                    }
                }
                for (int i = 0; i < 100; i++) {
                    addOther(ps, i, false);
                    pending = flush(ps, c, pending);
                }
            }
            SplittableRandom random = new SplittableRandom(total);
            while (nextJobId <= total) {
                if (random.nextInt(10) < 4) {
                    String cmd = ClusterCommandSet.OF_4_21.get(random.nextInt(ClusterCommandSet.OF_4_21.size()));
                    add(ps, shapes[random.nextInt(shapes.length)], cmd, 1 + random.nextInt(clusters), true);
                } else {
                    addOther(ps, random.nextInt(1_000_000), true);
                }
                pending = flush(ps, c, pending);
            }
            ps.executeBatch();
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
        try (Statement st = c.createStatement()) {
            st.execute("ANALYZE TABLE kubernetes_cluster, async_job, vm_instance, kubernetes_cluster_vm_map");
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(job_status = 0) FROM async_job")) {
                rs.next();
                System.out.printf(Locale.ROOT, "%,d jobs (%,d IN_PROGRESS) after %.1f s%n", rs.getLong(1), rs.getLong(2),
                        (System.nanoTime() - start) / 1e9);
                return rs.getLong(2);
            }
        }
    }

    private void add(PreparedStatement ps, JobShape shape, String cmd, long clusterId, boolean finished)
            throws SQLException {
        set(ps, shape.instanceType(cmd), shape.instanceId(cmd, clusterId), cmd,
                JobShape.cmdInfo(cmd, clusterId, uuid(clusterId)), finished);
    }

    private void addOther(PreparedStatement ps, long entity, boolean finished) throws SQLException {
        int k = (int) (entity % (OTHER_COMMANDS.length / 2)) * 2;
        set(ps, OTHER_COMMANDS[k + 1], entity, OTHER_COMMANDS[k], "{\"response\":\"json\",\"id\":\"" + uuid(entity)
                + "\",\"ctxUserId\":\"2\",\"ctxAccountId\":\"2\",\"httpmethod\":\"GET\"}", finished);
    }

    private void set(PreparedStatement ps, String type, Long instanceId, String cmd, String info, boolean finished)
            throws SQLException {
        ps.setLong(1, nextJobId++);
        ps.setString(2, type);
        ps.setObject(3, instanceId);
        ps.setString(4, cmd);
        ps.setString(5, info);
        ps.setInt(6, finished ? 1 : 0);
        ps.setInt(7, 0);
        ps.setString(8, finished ? "{\"success\":true}" : null);
        ps.setLong(9, CloudStackRows.MSID);
        ps.setLong(10, CloudStackRows.MSID);
        ps.setObject(11, finished ? CloudStackRows.MSID : null);
        ps.setLong(12, finished ? -86_400 : -60);
        ps.setObject(13, finished ? java.sql.Timestamp.valueOf("2026-01-01 00:00:00") : null);
        ps.addBatch();
    }

    private static int flush(PreparedStatement ps, Connection c, int pending) throws SQLException {
        if (pending + 1 < BATCH) {
            return pending + 1;
        }
        ps.executeBatch();
        c.commit();
        return 0;
    }

    /** The stuck clusters back in their operation states, every other cluster as populated (untimed). */
    private void reset(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE kubernetes_cluster SET state = ? WHERE id = ?")) {
            for (long[] s : stuck) {
                ps.setString(1, State.values()[(int) s[1]].name());
                ps.setLong(2, s[0]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The session's rows read through the storage engine: the sum of its Handler_read_* counters. */
    private static long handlerReads(Connection c) throws SQLException {
        long sum = 0;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Handler_read%'")) {
            while (rs.next()) {
                sum += rs.getLong(2);
            }
        }
        return sum;
    }

    /** What one reading of the counters adds to them. */
    private static long showCost(Connection c) throws SQLException {
        long a = handlerReads(c);
        return handlerReads(c) - a;
    }

    /** EXPLAIN of every distinct SELECT of the pass; a full scan of a table that must not be read whole is noted. */
    private static void explain(Connection c, List<String> statements, List<String> plans, List<String> fullScans)
            throws SQLException {
        Set<String> selects = new LinkedHashSet<>();
        for (String sql : statements) {
            if (sql.strip().toUpperCase(Locale.ROOT).startsWith("SELECT")) {
                selects.add(sql.replaceAll("\\(\\?(, \\?)+\\)", "(?)"));
            }
        }
        int n = 0;
        for (String sql : selects) {
            n++;
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN " + sql.replace("?", "0"))) {
                while (rs.next()) {
                    String table = rs.getString("table");
                    String type = rs.getString("type");
                    plans.add(String.format(Locale.ROOT, "| %d `%s` | %s | %s | %s | %s |", n, abbreviate(sql), table, type,
                            rs.getString("key"), rs.getString("rows")));
                    if ("ALL".equals(type) && table != null && NEVER_FULL.contains(table)) {
                        fullScans.add("statement " + n + " reads " + table + " whole");
                    }
                }
            }
        }
    }

    private static String abbreviate(String sql) {
        String flat = sql.replaceAll("\\s+", " ").replace("|", "\\|");
        return flat.length() > 90 ? flat.substring(0, 87) + "..." : flat;
    }

    private static String uuid(long id) {
        return String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", id);
    }
}
