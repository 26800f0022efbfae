package org.apache.cloudstack.kubernetes.state.scan;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.ClusterRecovery;
import org.apache.cloudstack.kubernetes.state.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.RecoveryPlan;
import org.apache.cloudstack.kubernetes.state.jdbc.AsyncJobLookup;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;

/**
 * The operator's way out for clusters stuck today: finds the clusters the status scanner would
 * recover (an operation's state, no IN_PROGRESS job), and with {@code apply} fails each by
 * compare-and-set on the state that was read. Only CloudManaged, not removed clusters; a cluster
 * with a live job is never touched, and any job of unknown cluster makes it wait.
 */
public final class StuckClusterScan<S extends Enum<S>, E extends Enum<E>> {
    /** One cluster the scanner would recover; {@code applied} is null in a dry run. */
    public record Finding(long id, String uuid, String name, String state, String to, Boolean applied) {
    }

    /** The outcome: waiting (an unknown-cluster job is in progress) or the recoveries. */
    public record Result(boolean waiting, List<Long> unknownJobIds, List<Finding> recoveries) {
        public Result {
            unknownJobIds = List.copyOf(unknownJobIds);
            recoveries = List.copyOf(recoveries);
        }
    }

    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final KubernetesClusterStateDao<S, E> dao;

    public StuckClusterScan(ClusterStateMachine<S, E> machine, ConnectionSource source) {
        this.machine = machine;
        this.source = source;
        this.dao = new KubernetesClusterStateDao<>(machine, source);
    }

    private record Row(String uuid, String name) {
    }

    public Result run(boolean apply) throws SQLException {
        List<ClusterSnapshot<S>> candidates = new ArrayList<>();
        List<S> states = new ArrayList<>();
        Map<Long, Row> rows = new HashMap<>();
        AsyncJobLookup.ClusterJobs jobs;
        try (Connection c = source.open()) {
            c.setReadOnly(true);
            try (PreparedStatement ps = c.prepareStatement(candidatesSql()); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    S state = machine.state(rs.getString(4).strip());
                    candidates.add(new ClusterSnapshot<>(rs.getLong(1), state, -1L));
                    states.add(state);
                    rows.put(rs.getLong(1), new Row(rs.getString(2), rs.getString(3)));
                }
            }
            if (!machine.needsJobLookup(states)) {
                return new Result(false, List.of(), List.of());
            }
            jobs = new AsyncJobLookup().inProgressClusterJobs(c);
        }
        RecoveryPlan<S, E> plan = machine.planRecovery(candidates, jobs.clusterIds());
        if (plan.kind() == RecoveryPlan.Kind.WAIT) {
            List<Long> unknown = new ArrayList<>();
            for (AsyncJobLookup.ClusterJob job : jobs.jobs()) {
                if (job.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER) {
                    unknown.add(job.jobId());
                }
            }
            return new Result(true, unknown, List.of());
        }
        List<Finding> findings = new ArrayList<>();
        for (ClusterRecovery<S, E> r : plan.recoveries()) {
            Row row = rows.get(r.clusterId());
            Boolean applied = apply ? dao.apply(r.clusterId(), r.update()) : null;
            findings.add(new Finding(r.clusterId(), row.uuid(), row.name(), r.update().expected().name(),
                    r.update().target().name(), applied));
        }
        return new Result(false, List.of(), findings);
    }

    private String candidatesSql() {
        StringBuilder in = new StringBuilder();
        for (S s : machine.orphanStates()) {
            in.append(in.length() == 0 ? "'" : ", '").append(s.name()).append('\'');
        }
        return "SELECT id, uuid, name, state FROM kubernetes_cluster WHERE state IN (" + in + ")"
                + " AND removed IS NULL AND (cluster_type IS NULL OR cluster_type = 'CloudManaged') ORDER BY id";
    }
}
