// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.ClusterRecovery;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.MsHost;
import org.apache.cloudstack.kubernetes.state.ReconcilePlan;
import org.apache.cloudstack.kubernetes.state.RecoveryPlan;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.VmSummary;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;
import org.apache.cloudstack.kubernetes.state.sql.InChunks;
import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The database side of CloudStack's CKS status scanner ({@code KubernetesClusterManagerImpl}) in the
 * DAO's mode; the caller runs the passes (CloudStack: every 30 s under a global lock).
 *
 * <p><b>Orphan recovery</b>: reads the CloudManaged candidates (in an operation's state; fenced: or
 * held, with version and owner) and commits; without one the pass ends. Then the IN_PROGRESS cluster
 * jobs ({@link AsyncJobLookup}). The core plans; when a candidate is held it first asks for the owner
 * evidence: {@code mshost} (heartbeat ages computed by the database) and which of the owners' jobs it
 * names have ended. Each recovery is one compare-and-set on the token read, so an operation that ended
 * or began since makes it miss, and a job created after the cluster read is still seen.
 *
 * <p><b>Alert reconciliation and fault detection</b>: one grouped query lists the Alert and Running
 * clusters with a summary of their VMs; the core plans steps per cluster, applied in order on the row
 * as listed, stopping at the first miss (a recovery is completed only by the pass that started it).
 *
 * <p>Statements per pass: recovery 1 without a candidate, else 2, +1 for the hosts when a candidate is
 * held and +1 when its owner's job is not IN_PROGRESS, +1 for jobs known by uuid only, + one per write; reconciliation 1 + one per step applied. Neither grows with the clusters.
 */
public final class ClusterStateScanner<S extends Enum<S>, E extends Enum<E>> {
    private static final Logger LOG = LogManager.getLogger(ClusterStateScanner.class);

    /** The scanner only handles clusters of this type. */
    public static final String CLOUD_MANAGED = "CloudManaged";
    /** The mshost rows, a heartbeat's age in CloudStack's time base ({@link DatabaseClock}). */
    static String hostsSql(Connection c) throws SQLException {
        return "SELECT msid, runid, CASE WHEN removed IS NOT NULL THEN 'Down' ELSE state END,"
                + " TIMESTAMPDIFF(SECOND, last_update, " + DatabaseClock.utcNow(c) + ") FROM mshost";
    }

    private final KubernetesClusterStateDao<S, E> dao;
    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final Supplier<Owner> scanner;
    private final boolean fenced;
    /** The lookup of the jobs that hold clusters: of the table's release line until {@link #setClusterCommands}. */
    private volatile AsyncJobLookup jobLookup;
    private final String candidatesSql;
    private final ScanQueries.Listing reconcileListing;
    private final S alert;
    private volatile ScanListener listener = new ScanListener() { };
    /** The deployment's {@code cluster.heartbeat.threshold} in ms, asked at each pass (it is dynamic). */
    private volatile LongSupplier heartbeatThreshold;

    /** A compat scanner that reads and writes through the DAO's connection source. */
    public ClusterStateScanner(KubernetesClusterStateDao<S, E> dao) {
        this(dao, dao.source(), () -> null);
    }

    /**
     * {@code scanner}: this server (msid, runid now), asked at each pass so a restart is followed; the
     * fenced mode holds a cluster with it between two reconcile steps (compat: may answer null).
     */
    public ClusterStateScanner(KubernetesClusterStateDao<S, E> dao, Supplier<Owner> scanner) {
        this(dao, dao.source(), scanner);
    }

    /** A scanner that uses {@code source} (e.g. a {@link StatementCounter}) for its connection. */
    public ClusterStateScanner(KubernetesClusterStateDao<S, E> dao, ConnectionSource source,
            Supplier<Owner> scanner) {
        this.dao = Arguments.required(dao, "dao");
        this.machine = dao.machine();
        this.heartbeatThreshold = machine::heartbeatThresholdMillis;
        this.source = Arguments.required(source, "source");
        this.scanner = Arguments.required(scanner, "scanner");
        this.fenced = dao.mode() == StateMode.FENCED;
        this.jobLookup = new AsyncJobLookup(ClusterCommandSet.ofReleaseLine(machine.profile()));
        Set<S> orphans = machine.orphanStates();
        // An empty set matches nothing; a fenced row held by an operation is a candidate in any state.
        String inOperation = orphans.isEmpty() ? "1 = 0" : "state IN (" + ScanQueries.quotedNames(orphans) + ")";
        this.candidatesSql = "SELECT id, " + dao.rowColumns(null) + " FROM kubernetes_cluster WHERE ("
                + inOperation + (fenced ? " OR " + FenceColumnsSql.OWNER_MSID + " IS NOT NULL" : "") + ") AND removed IS NULL"
                + " AND cluster_type = '" + CLOUD_MANAGED + "' ORDER BY id";
        this.alert = machine.state("Alert");
        this.reconcileListing = new ScanQueries.Listing("kc.id, " + dao.rowColumns("kc"), alert,
                machine.state("Running"), dao.source());
    }

    public StateMode mode() {
        return dao.mode();
    }

    /**
     * Where each later pass reads {@code cluster.heartbeat.threshold} (milliseconds): in CloudStack,
     * {@code ClusterManager.HeartbeatThreshold::value}. Default: the machine's
     * ({@link ClusterStateMachine#heartbeatThresholdMillis()}).
     */
    public void setHeartbeatThreshold(LongSupplier millis) {
        this.heartbeatThreshold = Arguments.required(millis, "millis");
    }

    /**
     * The commands whose IN_PROGRESS jobs hold their cluster: the plugin's own (what it registers), so
     * that a command CloudStack adds or renames holds its cluster without a change here.
     */
    public void setClusterCommands(ClusterCommandSet commands) {
        this.jobLookup = new AsyncJobLookup(Arguments.required(commands, "commands"));
        LOG.info("Status scanner: jobs that hold a Kubernetes cluster: {}", commands.describe());
    }

    /** The commands whose IN_PROGRESS jobs hold their cluster. */
    public ClusterCommandSet clusterCommands() {
        return jobLookup.commands();
    }

    /** Observes the points of every later pass ({@code null}: none). */
    public void setListener(ScanListener listener) {
        this.listener = listener == null ? new ScanListener() { } : listener;
    }

    /** One orphan-recovery pass (see the class comment). */
    public RecoveryResult<S> recoverOrphanedOperationStates() {
        return orphanRecovery(true);
    }

    /**
     * The same pass: with {@code apply} it is {@link #recoverOrphanedOperationStates()}; without, it
     * reads and plans and writes nothing (what it would do now: cks-state scan, explain).
     */
    public RecoveryResult<S> orphanRecovery(boolean apply) {
        return ScanPass.run(source, "status scanner: orphan recovery" + (apply ? "" : " preview"),
                (c, counter) -> recover(c, counter, apply, Set.of()));
    }

    /**
     * The pass planned as it would run once {@code endedJobs} have ended, writing nothing: what a pass
     * after failing those jobs would recover (cks-state scan --fail-departed-jobs, dry run).
     */
    public RecoveryResult<S> orphanRecoveryPreviewAfter(Set<Long> endedJobs) {
        Set<Long> ended = Set.copyOf(endedJobs);
        return ScanPass.run(source, "status scanner: orphan recovery preview",
                (c, counter) -> recover(c, counter, false, ended));
    }

    private RecoveryResult<S> recover(Connection c, StatementCounter counter, boolean apply, Set<Long> endedJobs)
            throws SQLException {
        List<ClusterSnapshot<S>> candidates = new ArrayList<>();
        List<Long> candidateIds = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(candidatesSql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong(1);
                candidates.add(new ClusterSnapshot<>(id, dao.row(rs, 2)));
                candidateIds.add(id);
            }
        }
        c.commit();
        listener.candidatesRead();
        if (candidates.isEmpty()) {
            return result(RecoveryResult.Kind.NO_CANDIDATE, candidateIds, List.of(), counter, apply);
        }
        AsyncJobLookup.ClusterJobs jobs = jobLookup.inProgressClusterJobs(c);
        c.commit();
        if (!endedJobs.isEmpty()) {
            jobs = new AsyncJobLookup.ClusterJobs(jobs.jobs().stream().filter(j -> !endedJobs.contains(j.jobId())).toList());
        }
        long[] jobIds = jobs.jobIds();
        ClusterStateMachine<S, E> judge = machine.withHeartbeatThreshold(heartbeatThreshold.getAsLong());
        RecoveryPlan<S, E> plan = judge.planRecovery(candidates, jobIds, jobs.clusterIds());
        if (plan.kind() == RecoveryPlan.Kind.NEEDS_OWNER_EVIDENCE) {
            // After the candidates and the jobs: an owner's runid is then already in mshost.
            List<MsHost> hosts = hosts(c);
            c.commit();
            long[] ended = java.util.stream.LongStream.concat(java.util.Arrays.stream(endedJobs(c, plan.ownerJobsToCheck())),
                    plan.ownerJobsToCheck().stream().filter(endedJobs::contains).mapToLong(Long::longValue)).distinct().toArray();
            plan = judge.planRecovery(candidates, jobIds, jobs.clusterIds(), ended, hosts);
        }
        listener.jobsRead();
        if (plan.kind() == RecoveryPlan.Kind.WAIT) {
            List<Long> unknown = new ArrayList<>();
            List<Long> encrypted = new ArrayList<>();
            for (AsyncJobLookup.ClusterJob j : jobs.jobs()) {
                if (j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER) {
                    unknown.add(j.jobId());
                    if (j.source() == AsyncJobLookup.Source.ENCRYPTED) {
                        encrypted.add(j.jobId());
                    }
                }
            }
            LOG.info("Status scanner: IN_PROGRESS Kubernetes cluster job(s) {} of unknown cluster{}; recovering"
                    + " nothing this pass", unknown, encrypted.isEmpty() ? "" : " (job_cmd_info encrypted: " + encrypted + ")");
            return new RecoveryResult<>(RecoveryResult.Kind.WAITED, candidateIds, List.of(), unknown, encrypted,
                    counter.count(), apply);
        }
        if (plan.recoveries().isEmpty()) {
            return result(RecoveryResult.Kind.NOTHING_TO_RECOVER, candidateIds, List.of(), counter, apply);
        }
        List<RecoveryResult.Planned<S>> planned = new ArrayList<>();
        if (apply) {
            listener.recoveriesPlanned(plan.recoveries().stream().map(ClusterRecovery::clusterId).toList());
        }
        for (ClusterRecovery<S, E> r : plan.recoveries()) {
            StateWrite<S, E> w = r.write();
            Boolean hit = null;
            if (apply) {
                listener.beforeRecovery(r.clusterId());
                hit = false;
                try {
                    hit = dao.applyAndCommit(c, r.clusterId(), w);
                } finally {
                    listener.afterRecovery(r.clusterId(), hit);
                }
                if (hit) {
                    LOG.warn("Status scanner: Kubernetes cluster {} was left by its operation ({}): {}", r.clusterId(),
                            r.reason().description(), w);
                }
            }
            planned.add(new RecoveryResult.Planned<>(r.clusterId(), w.expected().state(), w.target().state(),
                    r.reason(), hit));
        }
        return result(RecoveryResult.Kind.RECOVERED, candidateIds, planned, counter, apply);
    }

    /** A pass that did not wait: no job of unknown cluster to name. */
    private static <S extends Enum<S>> RecoveryResult<S> result(RecoveryResult.Kind kind, List<Long> candidateIds,
            List<RecoveryResult.Planned<S>> planned, StatementCounter counter, boolean apply) {
        return new RecoveryResult<>(kind, candidateIds, planned, List.of(), List.of(), counter.count(), apply);
    }

    /** Those of {@code jobs} (owners' jobs the core asked about) whose rows say they ended. */
    private static long[] endedJobs(Connection c, List<Long> jobs) throws SQLException {
        if (jobs.isEmpty()) {
            return new long[0];
        }
        List<Long> ended = new ArrayList<>();
        InChunks.query(c, "SELECT id FROM async_job WHERE job_status <> " + AsyncJobLookup.IN_PROGRESS + " AND id IN ",
                "", jobs, InChunks.LONGS, rs -> ended.add(rs.getLong(1)), c::commit);
        return ended.stream().mapToLong(Long::longValue).toArray();
    }

    private static List<MsHost> hosts(Connection c) throws SQLException {
        List<MsHost> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(hostsSql(c)); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long age = rs.getLong(4);
                // No heartbeat ever recorded proves nothing: count it as fresh.
                out.add(new MsHost(rs.getLong(1), rs.getLong(2), MsHost.status(rs.getString(3)),
                        rs.wasNull() ? 0 : Math.max(0, age)));
            }
        }
        return out;
    }

    /**
     * One Alert-reconciliation / fault-detection pass. {@code healthy}: does this cluster's
     * Kubernetes answer? Asked only for Alert clusters whose VMs all run; a Running cluster is judged
     * on its VMs alone, as CloudStack does.
     */
    public ReconcileResult<S> reconcileAlertClusters(Predicate<Long> healthy) {
        Arguments.required(healthy, "healthy");
        // Listed on one connection, probed on none (a probe is SSH and HTTPS to the cluster, and may take
        // minutes: a pooled connection held that long starves the server), written on another.
        int[] statements = new int[1];
        Map<Long, ScanQueries.ListedCluster<ClusterRow<S>>> listed = ScanPass.run(source,
                "status scanner: Alert reconciliation", (c, counter) -> {
                    Map<Long, ScanQueries.ListedCluster<ClusterRow<S>>> rows = ScanQueries.listForReconcile(c,
                            reconcileListing.sql(), rs -> dao.row(rs, 2), 2 + dao.rowColumnCount());
                    statements[0] = counter.count();
                    return rows;
                });
        listener.reconcileListed();
        Owner me = scanner.get();
        Map<Long, Judged<S, E>> judged = new LinkedHashMap<>();
        for (Map.Entry<Long, ScanQueries.ListedCluster<ClusterRow<S>>> e : listed.entrySet()) {
            long id = e.getKey();
            ClusterRow<S> row = e.getValue().row();
            VmSummary vms = machine.vmSummary(row.state(), e.getValue().vms(), () -> healthy.test(id));
            ReconcilePlan<S, E> plan = machine.planReconcile(row, vms, me);
            if (!plan.steps().isEmpty()) {
                judged.put(id, new Judged<>(row, vms, plan));
            }
        }
        if (judged.isEmpty()) {
            return new ReconcileResult<>(listed.size(), Map.of(), List.of(), 0, statements[0]);
        }
        return ScanPass.run(source, "status scanner: Alert reconciliation",
                (c, counter) -> reconcile(c, counter, listed.size(), judged, statements[0]));
    }

    /** A listed cluster the pass moves: its row as listed, what its VMs say, and the writes that follow. */
    private record Judged<S, E>(ClusterRow<S> row, VmSummary vms, ReconcilePlan<S, E> plan) {
    }

    /** The writes of the clusters judged to move, each step by compare-and-set on the row listed. */
    private ReconcileResult<S> reconcile(Connection c, StatementCounter counter, int listed,
            Map<Long, Judged<S, E>> judged, int listing) throws SQLException {
        Map<Long, S> moved = new LinkedHashMap<>();
        List<Long> missed = new ArrayList<>();
        int steps = 0;
        for (Map.Entry<Long, Judged<S, E>> e : judged.entrySet()) {
            long id = e.getKey();
            ClusterRow<S> row = e.getValue().row();
            VmSummary vms = e.getValue().vms();
            S reached = null;
            for (StateWrite<S, E> step : e.getValue().plan().steps()) {
                steps++;
                boolean hit = dao.applyAndCommit(c, id, step);
                listener.afterReconcileStep(id, hit);
                if (!hit) {
                    missed.add(id);
                    break;
                }
                reached = step.target().state();
            }
            if (reached != null) {
                moved.put(id, reached);
                LOG.info("Status scanner: Kubernetes cluster {} {} -> {} (VMs {})", id, row.token(), reached, vms);
            }
        }
        return new ReconcileResult<>(listed, moved, missed, steps, listing + counter.count());
    }
}
