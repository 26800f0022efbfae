package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Fence;
import org.apache.cloudstack.kubernetes.state.FencedCandidate;
import org.apache.cloudstack.kubernetes.state.FencedRecovery;
import org.apache.cloudstack.kubernetes.state.FencedRecoveryPlan;
import org.apache.cloudstack.kubernetes.state.FencedStateMachine;
import org.apache.cloudstack.kubernetes.state.FencedWrite;
import org.apache.cloudstack.kubernetes.state.InProgressJob;
import org.apache.cloudstack.kubernetes.state.MsHost;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.RecoveryPlan;
import org.apache.cloudstack.kubernetes.state.VmSummary;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The status scanner in fenced mode, drop-in for {@link KubernetesClusterStatusScanner}.
 *
 * <p><b>Orphan recovery</b>: reads the candidates (a cluster in an operation's state, or held by
 * an operation) with their fence, commits, then the IN_PROGRESS cluster jobs, then {@code mshost}
 * with each heartbeat's age computed by the database ({@code TIMESTAMPDIFF(SECOND, last_update,
 * NOW())}, on H2 too: no local clock is read). A candidate is failed (a held one at rest only
 * released) when no IN_PROGRESS job names it or its owner's job AND its owner (msid, runid) is Down,
 * restarted with another runid, or silent for longer than
 * {@link FencedStateMachine#ownerGoneAfterSeconds()}; a row without owner (an older server's) is
 * judged as in compat mode. Every write expects the token that was read, so an operation that ended
 * or began since makes it miss; a deleted job row or a NULL instance_id can no longer fail a live
 * operation, since its owner is alive. A removed {@code mshost} row counts as Down.
 *
 * <p><b>Alert reconciliation</b>: as in compat mode, by token; a held row is left alone and the
 * scanner holds the cluster between the two steps of a chain.
 *
 * <p>Statements per pass: recovery 1 (no candidate), else 3 (+1 for uuid-only jobs) + one per write;
 * reconciliation 1 + one per step applied.
 */
public final class FencedStatusScanner<S extends Enum<S>, E extends Enum<E>> implements StatusScanner<S, E> {
    private static final Logger LOG = LogManager.getLogger(FencedStatusScanner.class);

    static final String HOSTS_SQL = "SELECT msid, runid, CASE WHEN removed IS NOT NULL THEN 'Down' ELSE state END,"
            + " TIMESTAMPDIFF(SECOND, last_update, NOW()) FROM mshost";

    private final FencedClusterStateDao<S, E> dao;
    private final FencedStateMachine<S, E> fenced;
    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final Supplier<Owner> scanner;
    private final AsyncJobLookup jobLookup = new AsyncJobLookup();
    private final String candidatesSql;
    private final ScanQueries.Listing reconcileListing;
    private final S alert;
    private volatile ScanListener listener = new ScanListener() { };

    /** {@code scanner}: this server (msid, runid now); asked at each pass, so a restart is followed. */
    public FencedStatusScanner(FencedClusterStateDao<S, E> dao, Supplier<Owner> scanner) {
        this(dao, dao.source(), scanner);
    }

    public FencedStatusScanner(FencedClusterStateDao<S, E> dao, ConnectionSource source, Supplier<Owner> scanner) {
        this.dao = Objects.requireNonNull(dao, "dao");
        this.fenced = dao.fenced();
        this.machine = dao.machine();
        this.source = Objects.requireNonNull(source, "source");
        this.scanner = Objects.requireNonNull(scanner, "scanner");
        Set<S> orphans = machine.orphanStates();
        this.candidatesSql = "SELECT id, state, state_version, op_owner_msid, op_owner_runid, op_job_id"
                + " FROM kubernetes_cluster WHERE ("
                + (orphans.isEmpty() ? "" : "state IN (" + ScanQueries.quotedNames(orphans) + ") OR ")
                + "op_owner_msid IS NOT NULL) AND removed IS NULL AND cluster_type = '"
                + KubernetesClusterStatusScanner.CLOUD_MANAGED + "' ORDER BY id";
        this.alert = machine.state("Alert");
        this.reconcileListing = new ScanQueries.Listing(
                "kc.id, kc.state, kc.state_version, kc.op_owner_msid, kc.op_owner_runid, kc.op_job_id", alert,
                machine.state("Running"), dao.source());
    }

    @Override
    public void setListener(ScanListener listener) {
        this.listener = listener == null ? new ScanListener() { } : listener;
    }

    @Override
    public RecoveryResult recoverOrphanedOperationStates() {
        return ScanPass.run(source, "fenced status scanner: orphan recovery", (c, counter) -> recover(c, counter, null, true));
    }

    @Override
    public RecoveryReport<S> orphanRecovery(boolean apply) {
        List<RecoveryReport.Planned<S>> planned = new ArrayList<>();
        RecoveryResult r = ScanPass.run(source, "fenced status scanner: orphan recovery" + (apply ? "" : " preview"),
                (c, counter) -> recover(c, counter, planned, apply));
        RecoveryResult.Kind kind = r.kind() == RecoveryResult.Kind.RECOVERED && planned.isEmpty()
                ? RecoveryResult.Kind.NOTHING_TO_RECOVER : r.kind();
        return new RecoveryReport<>(kind, r.candidateIds(), planned, r.unknownJobIds(), apply);
    }

    /**
     * The owners' jobs that are no longer IN_PROGRESS but whose rows remain: their operations ended
     * without releasing the cluster. Asked only for owners whose job is not among the IN_PROGRESS
     * ones, so a pass with only live operations runs no extra statement.
     */
    private static <S> long[] endedOwnerJobs(Connection c, List<FencedCandidate<S>> candidates,
            List<InProgressJob> inProgress) throws SQLException {
        Set<Long> live = new HashSet<>();
        for (InProgressJob j : inProgress) {
            live.add(j.jobId());
        }
        List<Long> asked = new ArrayList<>();
        for (FencedCandidate<S> k : candidates) {
            Owner o = k.fence().owner();
            if (o != null && o.jobId() >= 0 && !live.contains(o.jobId())) {
                asked.add(o.jobId());
            }
        }
        List<Long> ended = new ArrayList<>();
        for (int from = 0; from < asked.size(); from += AsyncJobLookup.UUID_CHUNK) {
            List<Long> chunk = asked.subList(from, Math.min(asked.size(), from + AsyncJobLookup.UUID_CHUNK));
            String marks = String.join(", ", Collections.nCopies(chunk.size(), "?"));
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM async_job WHERE job_status <> "
                    + AsyncJobLookup.IN_PROGRESS + " AND id IN (" + marks + ")")) {
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setLong(i + 1, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ended.add(rs.getLong(1));
                    }
                }
            }
        }
        c.commit();
        return ended.stream().mapToLong(Long::longValue).toArray();
    }

    /** The pass; {@code report} (may be null) collects each planned recovery; without {@code apply} nothing is written. */
    private RecoveryResult recover(Connection c, StatementCounter counter, List<RecoveryReport.Planned<S>> report,
            boolean apply) throws SQLException {
        List<FencedCandidate<S>> candidates = new ArrayList<>();
        List<Long> candidateIds = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(candidatesSql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong(1);
                candidates.add(new FencedCandidate<>(id, dao.fence(rs, 2)));
                candidateIds.add(id);
            }
        }
        c.commit();
        listener.candidatesRead();
        if (candidates.isEmpty()) {
            return new RecoveryResult(RecoveryResult.Kind.NO_CANDIDATE, candidateIds, List.of(), List.of(), List.of(),
                    counter.count());
        }
        AsyncJobLookup.ClusterJobs jobs = jobLookup.inProgressClusterJobs(c);
        c.commit();
        List<MsHost> hosts = hosts(c);
        c.commit();
        listener.jobsRead();
        List<InProgressJob> inProgress = new ArrayList<>(jobs.jobs().size());
        List<Long> unknown = new ArrayList<>();
        for (AsyncJobLookup.ClusterJob j : jobs.jobs()) {
            inProgress.add(new InProgressJob(j.jobId(), j.clusterId()));
            if (j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER) {
                unknown.add(j.jobId());
            }
        }
        long[] ended = endedOwnerJobs(c, candidates, inProgress);
        FencedRecoveryPlan<S, E> verdict = fenced.planRecoveryPass(candidates, inProgress, ended, hosts);
        List<FencedRecovery<S, E>> plan = verdict.recoveries();
        if (verdict.kind() == RecoveryPlan.Kind.WAIT) {
            return new RecoveryResult(RecoveryResult.Kind.WAITED, candidateIds, List.of(), List.of(), unknown,
                    counter.count());
        }
        if (plan.isEmpty()) {
            return new RecoveryResult(RecoveryResult.Kind.NOTHING_TO_RECOVER, candidateIds, List.of(), List.of(),
                    List.of(), counter.count());
        }
        List<Long> recovered = new ArrayList<>();
        List<Long> missed = new ArrayList<>();
        for (FencedRecovery<S, E> r : plan) {
            boolean hit = false;
            if (apply) {
                listener.beforeRecovery(r.clusterId());
                try {
                    hit = dao.apply(c, r.clusterId(), r.write());
                } finally {
                    listener.afterRecovery(r.clusterId(), hit);
                }
            }
            if (report != null) {
                report.add(new RecoveryReport.Planned<>(r.clusterId(), r.write().expected().state(),
                        r.write().target().state(), "owner gone: " + r.reason(), apply ? hit : null));
            }
            if (!apply) {
                continue;
            }
            if (hit) {
                recovered.add(r.clusterId());
                FencedWrite<S, E> w = r.write();
                LOG.warn("Fenced status scanner: Kubernetes cluster {} held by a gone owner ({}): {} -> {}",
                        r.clusterId(), r.reason(), w.expected(), w.target());
            } else {
                missed.add(r.clusterId());
            }
        }
        return new RecoveryResult(RecoveryResult.Kind.RECOVERED, candidateIds, recovered, missed, List.of(),
                counter.count());
    }

    private static List<MsHost> hosts(Connection c) throws SQLException {
        List<MsHost> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(HOSTS_SQL); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long age = rs.getLong(4);
                // No heartbeat ever recorded proves nothing: count it as fresh.
                out.add(new MsHost(rs.getLong(1), rs.getLong(2), MsHost.status(rs.getString(3)),
                        rs.wasNull() ? 0 : Math.max(0, age)));
            }
        }
        return out;
    }

    @Override
    public ReconcileResult<S> reconcileAlertClusters(Predicate<Long> healthy) {
        Objects.requireNonNull(healthy, "healthy");
        return ScanPass.run(source, "fenced status scanner: Alert reconciliation",
                (c, counter) -> reconcile(c, counter, healthy));
    }

    private ReconcileResult<S> reconcile(Connection c, StatementCounter counter, Predicate<Long> healthy)
            throws SQLException {
        Map<Long, ScanQueries.ListedCluster<Fence<S>>> listed = ScanQueries.listForReconcile(c, reconcileListing.sql(),
                rs -> dao.fence(rs, 2), 7, fence -> fence.state() == alert, healthy);
        listener.reconcileListed();
        Owner me = scanner.get();
        Map<Long, S> moved = new LinkedHashMap<>();
        List<Long> missed = new ArrayList<>();
        int steps = 0;
        for (Map.Entry<Long, ScanQueries.ListedCluster<Fence<S>>> e : listed.entrySet()) {
            long id = e.getKey();
            Fence<S> fence = e.getValue().row();
            VmSummary vms = e.getValue().vms();
            S reached = null;
            for (FencedWrite<S, E> step : fenced.planReconcile(fence, vms, me)) {
                steps++;
                if (!dao.apply(c, id, step)) {
                    missed.add(id);
                    break;
                }
                reached = step.target().state();
            }
            if (reached != null) {
                moved.put(id, reached);
                LOG.info("Fenced status scanner: Kubernetes cluster {} {} -> {} (VMs {})", id, fence.token(), reached,
                        vms);
            }
        }
        return new ReconcileResult<>(listed.size(), moved, missed, steps, counter.count());
    }
}
