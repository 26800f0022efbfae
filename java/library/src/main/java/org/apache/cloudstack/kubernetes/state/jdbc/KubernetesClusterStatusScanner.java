package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.cloudstack.kubernetes.state.ClusterRecovery;
import org.apache.cloudstack.kubernetes.state.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.RecoveryPlan;
import org.apache.cloudstack.kubernetes.state.StateUpdate;
import org.apache.cloudstack.kubernetes.state.VmSummary;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The database side of CloudStack's CKS status scanner ({@code KubernetesClusterManagerImpl}),
 * run by the caller on every pass (CloudStack: every 30 s under a global lock).
 *
 * <p><b>Orphan recovery</b> ({@link #recoverOrphanedOperationStates()}): one query reads the
 * CloudManaged, not removed clusters in an operation's state; without a candidate the pass ends
 * there. Otherwise one {@link AsyncJobLookup} (1 or 2
 * statements), the native recovery plan, and one compare-and-set (OperationFailed, on the state
 * that was read) per orphan. The cluster is read before its jobs and each read is committed
 * before the next, so an operation that ends in between moves the cluster on and the update
 * misses, and a job created after the cluster read is still seen.
 *
 * <p><b>Alert reconciliation and fault detection</b> ({@link #reconcileAlertClusters}): one
 * grouped query lists the Alert and Running clusters with a summary of their VMs
 * (kubernetes_cluster_vm_map joined to vm_instance); the native core plans steps per cluster,
 * applied in order by compare-and-set on the state as listed, stopping at the first miss. A
 * recovery (Alert -> Recovering -> Running) is therefore completed only by the pass that started it.
 *
 * <p>Statements per pass: recovery 1 (no candidate), else 2 + (1 if some job has a NULL
 * instance_id and a uuid) + one per orphan; reconciliation 1 + one per step applied. Neither grows
 * with the number of clusters except by the compare-and-sets of clusters it moves. (With
 * history on, each hit also inserts one history row.)
 */
public final class KubernetesClusterStatusScanner<S extends Enum<S>, E extends Enum<E>> implements StatusScanner<S, E> {
    private static final Logger LOG = LogManager.getLogger(KubernetesClusterStatusScanner.class);

    /** The scanner only handles clusters of this type. */
    public static final String CLOUD_MANAGED = "CloudManaged";

    private final KubernetesClusterStateDao<S, E> dao;
    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final AsyncJobLookup jobLookup = new AsyncJobLookup();
    private final String candidatesSql;
    private final ScanQueries.Listing reconcileListing;
    private final S alert;
    private volatile ScanListener listener = new ScanListener() { };

    /** A scanner that reads and writes through the DAO's connection source. */
    public KubernetesClusterStatusScanner(KubernetesClusterStateDao<S, E> dao) {
        this(dao, dao.source());
    }

    /** A scanner that uses {@code source} (e.g. a {@link StatementCounter}) for its connection. */
    public KubernetesClusterStatusScanner(KubernetesClusterStateDao<S, E> dao, ConnectionSource source) {
        this.dao = Objects.requireNonNull(dao, "dao");
        this.machine = dao.machine();
        this.source = Objects.requireNonNull(source, "source");
        Set<S> orphans = machine.orphanStates();
        // An empty set matches nothing.
        this.candidatesSql = "SELECT id, state FROM kubernetes_cluster WHERE "
                + (orphans.isEmpty() ? "1 = 0" : "state IN (" + ScanQueries.quotedNames(orphans) + ")")
                + " AND removed IS NULL AND cluster_type = '" + CLOUD_MANAGED + "' ORDER BY id";
        this.alert = machine.state("Alert");
        this.reconcileListing = new ScanQueries.Listing("kc.id, kc.state", alert, machine.state("Running"), dao.source());
    }

    /** Observes the points of every later pass ({@code null}: none). */
    @Override
    public void setListener(ScanListener listener) {
        this.listener = listener == null ? new ScanListener() { } : listener;
    }

    /** One orphan-recovery pass (see the class comment). */
    @Override
    public RecoveryResult recoverOrphanedOperationStates() {
        return ScanPass.run(source, "status scanner: orphan recovery", (c, counter) -> recover(c, counter, null, true));
    }

    @Override
    public RecoveryReport<S> orphanRecovery(boolean apply) {
        List<RecoveryReport.Planned<S>> planned = new ArrayList<>();
        RecoveryResult r = ScanPass.run(source, "status scanner: orphan recovery" + (apply ? "" : " preview"),
                (c, counter) -> recover(c, counter, planned, apply));
        RecoveryResult.Kind kind = r.kind() == RecoveryResult.Kind.RECOVERED && planned.isEmpty()
                ? RecoveryResult.Kind.NOTHING_TO_RECOVER : r.kind();
        return new RecoveryReport<>(kind, r.candidateIds(), planned, r.unknownJobIds(), apply);
    }

    /** The pass; {@code report} (may be null) collects each planned recovery; without {@code apply} nothing is written. */
    private RecoveryResult recover(Connection c, StatementCounter counter, List<RecoveryReport.Planned<S>> report,
            boolean apply) throws SQLException {
        List<ClusterSnapshot<S>> candidates = new ArrayList<>();
        List<Long> candidateIds = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(candidatesSql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong(1);
                S state = machine.state(rs.getString(2).strip());
                candidates.add(new ClusterSnapshot<>(id, state));
                candidateIds.add(id);
            }
        }
        c.commit();
        listener.candidatesRead();
        if (candidates.isEmpty()) { // the query reads operation states only
            return new RecoveryResult(RecoveryResult.Kind.NO_CANDIDATE, candidateIds, List.of(), List.of(), List.of(),
                    counter.count());
        }
        AsyncJobLookup.ClusterJobs jobs = jobLookup.inProgressClusterJobs(c);
        c.commit();
        listener.jobsRead();
        RecoveryPlan<S, E> plan = machine.planRecovery(candidates, jobs.clusterIds());
        switch (plan.kind()) {
            case WAIT: {
                List<Long> unknown = new ArrayList<>();
                for (AsyncJobLookup.ClusterJob j : jobs.jobs()) {
                    if (j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER) {
                        unknown.add(j.jobId());
                    }
                }
                LOG.info("Status scanner: IN_PROGRESS Kubernetes cluster job(s) {} of unknown cluster; recovering"
                        + " nothing this pass", unknown);
                return new RecoveryResult(RecoveryResult.Kind.WAITED, candidateIds, List.of(), List.of(), unknown,
                        counter.count());
            }
            case SKIP:
                return new RecoveryResult(RecoveryResult.Kind.NOTHING_TO_RECOVER, candidateIds, List.of(), List.of(),
                        List.of(), counter.count());
            case RECOVER:
            default: {
                List<Long> recovered = new ArrayList<>();
                List<Long> missed = new ArrayList<>();
                for (ClusterRecovery<S, E> r : plan.recoveries()) {
                    boolean hit = false;
                    if (apply) {
                        listener.beforeRecovery(r.clusterId());
                        try {
                            hit = dao.apply(c, r.clusterId(), r.update());
                        } finally {
                            listener.afterRecovery(r.clusterId(), hit);
                        }
                    }
                    if (report != null) {
                        report.add(new RecoveryReport.Planned<>(r.clusterId(), r.update().expected(), r.update().target(),
                                "no IN_PROGRESS job names it, and no job of unknown cluster runs", apply ? hit : null));
                    }
                    if (!apply) {
                        continue;
                    }
                    if (hit) {
                        recovered.add(r.clusterId());
                        LOG.warn("Status scanner: Kubernetes cluster {} was left in {} with no job in progress:"
                                + " {} -> {}", r.clusterId(), r.update().expected(), r.update().event(),
                                r.update().target());
                    } else {
                        missed.add(r.clusterId());
                    }
                }
                return new RecoveryResult(RecoveryResult.Kind.RECOVERED, candidateIds, recovered, missed, List.of(),
                        counter.count());
            }
        }
    }

    /**
     * One Alert-reconciliation / fault-detection pass. {@code healthy} tells whether the
     * Kubernetes cluster with this id answers (API server up, nodes ready): the database cannot
     * know. It is asked only for Alert clusters whose VMs all run; a Running cluster is judged on
     * its VM states alone, as CloudStack does.
     */
    @Override
    public ReconcileResult<S> reconcileAlertClusters(Predicate<Long> healthy) {
        Objects.requireNonNull(healthy, "healthy");
        return ScanPass.run(source, "status scanner: Alert reconciliation",
                (c, counter) -> reconcile(c, counter, healthy));
    }

    private ReconcileResult<S> reconcile(Connection c, StatementCounter counter, Predicate<Long> healthy)
            throws SQLException {
        Map<Long, ScanQueries.ListedCluster<S>> listed = ScanQueries.listForReconcile(c, reconcileListing.sql(),
                rs -> machine.state(rs.getString(2).strip()), 3, state -> state == alert, healthy);
        listener.reconcileListed();
        Map<Long, S> moved = new LinkedHashMap<>();
        List<Long> missed = new ArrayList<>();
        int steps = 0;
        for (Map.Entry<Long, ScanQueries.ListedCluster<S>> e : listed.entrySet()) {
            long id = e.getKey();
            S state = e.getValue().row();
            VmSummary vms = e.getValue().vms();
            S reached = null;
            for (StateUpdate<S, E> step : machine.planReconcile(state, vms).steps()) {
                steps++;
                if (!dao.apply(c, id, step)) {
                    missed.add(id);
                    break;
                }
                reached = step.target();
            }
            if (reached != null) {
                moved.put(id, reached);
                LOG.info("Status scanner: Kubernetes cluster {} {} -> {} (VMs {})", id, state, reached, vms);
            }
        }
        return new ReconcileResult<>(listed.size(), moved, missed, steps, counter.count());
    }
}
