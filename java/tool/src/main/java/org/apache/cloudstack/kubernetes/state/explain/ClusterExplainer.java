package org.apache.cloudstack.kubernetes.state.explain;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.jdbc.AsyncJobLookup;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.JobCmdInfo;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStatusScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;
import org.apache.cloudstack.kubernetes.state.StateMode;

/**
 * Reads what {@link ClusterExplanation} holds, read-only. The verdict is the status scanner's own
 * ({@link KubernetesClusterStatusScanner#orphanRecovery(boolean)} without apply: its reads and its native plan, nothing written),
 * in the mode the management servers run.
 */
public final class ClusterExplainer<S extends Enum<S>, E extends Enum<E>> {
    /** The scanner's preview writes nothing, so its identity never reaches the database. */
    private static final Owner NO_SCANNER = Owner.of(0, 0);

    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final StateMode mode;
    private final int maxJobs;

    public ClusterExplainer(ClusterStateMachine<S, E> machine, ConnectionSource source, StateMode mode, int maxJobs) {
        this.machine = machine;
        this.source = source;
        this.mode = mode;
        this.maxJobs = maxJobs;
    }

    /** Thrown when CLUSTER names no cluster, or several. */
    public static final class NotFound extends Exception {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message);
        }
    }

    public ClusterExplanation explain(String clusterRef) throws SQLException, NotFound {
        ClusterExplanation.Cluster cluster;
        List<ClusterExplanation.Job> jobs;
        List<ClusterExplanation.Server> servers;
        List<Long> unknown = new ArrayList<>();
        List<Long> liveClusterJobs = new ArrayList<>();
        try (Connection c = source.open()) {
            c.setReadOnly(true);
            boolean fencedColumns = CloudStackSchema.fenceColumns(c) == CloudStackSchema.FenceColumns.ALL;
            if (mode == StateMode.FENCED && !fencedColumns) {
                throw new NotFound("--mode fenced: this database has no fenced columns ("
                        + String.join(", ", CloudStackSchema.FENCE_COLUMNS) + ")");
            }
            cluster = find(c, clusterRef, fencedColumns);
            jobs = jobs(c, cluster);
            servers = servers(c, cluster, jobs);
            for (AsyncJobLookup.ClusterJob j : new AsyncJobLookup().inProgressClusterJobs(c).jobs()) {
                if (j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER) {
                    unknown.add(j.jobId());
                } else if (j.clusterId() == cluster.id()) {
                    liveClusterJobs.add(j.jobId());
                }
            }
        }
        return new ClusterExplanation(cluster, jobs, servers, unknown, verdict(cluster, liveClusterJobs));
    }

    private ClusterExplanation.Verdict verdict(ClusterExplanation.Cluster cluster, List<Long> liveJobs) {
        KubernetesClusterStatusScanner<S, E> scanner = new KubernetesClusterStatusScanner<>(
                new KubernetesClusterStateDao<>(machine.withMode(mode), source), () -> NO_SCANNER);
        RecoveryResult<S> preview = scanner.orphanRecovery(false);
        RecoveryResult.Planned<S> planned = preview.plannedFor(cluster.id());
        if (planned != null) {
            return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.RECOVER, planned.to().name(), List.of(),
                    "the " + mode.label() + " scanner would move it " + planned.from() + " -> " + planned.to() + ": "
                            + planned.reason());
        }
        boolean candidate = preview.candidateIds().contains(cluster.id());
        if (candidate && preview.kind() == RecoveryResult.Kind.WAITED) {
            return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.WAIT, null, preview.unknownJobIds(),
                    "IN_PROGRESS Kubernetes cluster job(s) " + preview.unknownJobIds() + " name no cluster the scanner"
                            + " can read: it recovers nothing of unknown ownership until they end");
        }
        if (candidate) {
            String why = !liveJobs.isEmpty() ? "IN_PROGRESS job(s) " + liveJobs + " name it"
                    : cluster.ownerMsid() != null ? "it is held by a live owner (msid " + cluster.ownerMsid() + ", runid "
                            + cluster.ownerRunid() + (cluster.ownerJobId() == null ? "" : ", job " + cluster.ownerJobId()) + ")"
                    : "its operation is live";
            return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.LEAVE, null, liveJobs,
                    "the " + mode.label() + " scanner leaves it: " + why);
        }
        String why = cluster.removed() != null ? "it is removed"
                : !KubernetesClusterStatusScanner.CLOUD_MANAGED.equals(cluster.clusterType())
                        ? "it is not CloudManaged (" + cluster.clusterType() + ")"
                : machine.orphanStates().stream().noneMatch(s -> s.name().equals(cluster.state()))
                        ? cluster.state() + " is not an operation's state"
                : "it was not read as a candidate";
        return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.LEAVE, null, List.of(),
                "the " + mode.label() + " scanner leaves it: " + why);
    }

    private static ClusterExplanation.Cluster find(Connection c, String ref, boolean fencedColumns)
            throws SQLException, NotFound {
        String columns = "id, uuid, name, state, cluster_type, removed"
                + (fencedColumns ? ", state_version, op_owner_msid, op_owner_runid, op_job_id" : "");
        boolean numeric = ref.matches("[0-9]{1,18}");
        String sql = "SELECT " + columns + " FROM kubernetes_cluster WHERE "
                + (numeric ? "id = ? OR " : "") + "uuid = ? OR name = ? ORDER BY id";
        List<ClusterExplanation.Cluster> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (numeric) {
                ps.setLong(i++, Long.parseLong(ref));
            }
            ps.setString(i++, ref);
            ps.setString(i, ref);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new ClusterExplanation.Cluster(rs.getLong(1), rs.getString(2), rs.getString(3),
                            strip(rs.getString(4)), rs.getString(5), text(rs.getObject(6)),
                            fencedColumns ? rs.getLong(7) : null, fencedColumns ? nullableLong(rs, 8) : null,
                            fencedColumns ? nullableLong(rs, 9) : null, fencedColumns ? nullableLong(rs, 10) : null));
                }
            }
        }
        if (numeric) { // an id wins over a name made of digits
            for (ClusterExplanation.Cluster k : found) {
                if (String.valueOf(k.id()).equals(ref)) {
                    return k;
                }
            }
        }
        if (found.isEmpty()) {
            throw new NotFound("no Kubernetes cluster has the id, uuid or name '" + ref + "'");
        }
        if (found.size() > 1) {
            List<Long> ids = found.stream().map(ClusterExplanation.Cluster::id).toList();
            throw new NotFound("the name '" + ref + "' names " + found.size() + " clusters " + ids + ": give an id or uuid");
        }
        return found.get(0);
    }

    private List<ClusterExplanation.Job> jobs(Connection c, ClusterExplanation.Cluster cluster) throws SQLException {
        boolean byUuid = cluster.uuid() != null && !cluster.uuid().isBlank();
        String sql = "SELECT id, job_cmd, job_status, job_result_code, job_result, job_init_msid, job_executing_msid,"
                + " created, last_updated, removed, instance_type, instance_id, job_cmd_info FROM async_job"
                + " WHERE (instance_type = '" + AsyncJobLookup.INSTANCE_TYPE + "' AND instance_id = ?)"
                + (byUuid ? " OR job_cmd_info LIKE ?" : "") + " ORDER BY id DESC";
        List<ClusterExplanation.Job> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, cluster.id());
            if (byUuid) {
                ps.setString(2, "%" + cluster.uuid().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && out.size() < maxJobs) {
                    boolean byInstance = AsyncJobLookup.INSTANCE_TYPE.equals(rs.getString(11))
                            && rs.getObject(12) != null && rs.getLong(12) == cluster.id();
                    // The LIKE may match the uuid under another parameter: only the command's own "id" names it.
                    if (!byInstance && (!byUuid || !cluster.uuid().equals(JobCmdInfo.clusterUuid(rs.getString(13))))) {
                        continue;
                    }
                    out.add(new ClusterExplanation.Job(rs.getLong(1), rs.getString(2), rs.getInt(3),
                            nullableInt(rs, 4), rs.getString(5), nullableLong(rs, 6), nullableLong(rs, 7),
                            text(rs.getObject(8)), text(rs.getObject(9)), text(rs.getObject(10)),
                            byInstance ? "instance_id" : "job_cmd_info"));
                }
            }
        }
        return out;
    }

    private static List<ClusterExplanation.Server> servers(Connection c, ClusterExplanation.Cluster cluster,
            List<ClusterExplanation.Job> jobs) throws SQLException {
        Set<Long> msids = new LinkedHashSet<>();
        if (cluster.ownerMsid() != null) {
            msids.add(cluster.ownerMsid());
        }
        for (ClusterExplanation.Job j : jobs) {
            if (j.initMsid() != null) {
                msids.add(j.initMsid());
            }
            if (j.executingMsid() != null) {
                msids.add(j.executingMsid());
            }
        }
        if (msids.isEmpty()) {
            return List.of();
        }
        String marks = String.join(", ", Collections.nCopies(msids.size(), "?"));
        List<ClusterExplanation.Server> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT msid, name, state, runid, last_update, removed FROM mshost"
                + " WHERE msid IN (" + marks + ") ORDER BY msid")) {
            int i = 1;
            for (long msid : msids) {
                ps.setLong(i++, msid);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new ClusterExplanation.Server(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                            text(rs.getObject(5)), text(rs.getObject(6))));
                }
            }
        }
        return out;
    }

    private static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    private static Integer nullableInt(ResultSet rs, int column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    private static String strip(String s) {
        return s == null ? null : s.strip();
    }

    /** A date or time column as the database gives it, without fractions of a second. */
    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        String s = value.toString().replace('T', ' ');
        int dot = s.indexOf('.');
        return dot > 0 ? s.substring(0, dot) : s;
    }
}
