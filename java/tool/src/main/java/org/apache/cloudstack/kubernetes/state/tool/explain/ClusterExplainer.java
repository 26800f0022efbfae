// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.explain;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.tool.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.jdbc.AsyncJobLookup;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.sql.JobText;
import org.apache.cloudstack.kubernetes.state.tool.text.DatabaseTime;
import org.apache.cloudstack.kubernetes.state.value.Owner;

/**
 * Reads what {@link ClusterExplanation} holds, read-only. The verdict is the status scanner's own
 * ({@link ClusterStateScanner#orphanRecovery(boolean)} without apply: its reads and its native plan, nothing written),
 * in the mode the management servers run.
 */
public final class ClusterExplainer<S extends Enum<S>, E extends Enum<E>> {
    /** The scanner's preview writes nothing, so its identity never reaches the database. */
    private static final Owner NO_SCANNER = Owner.of(0, 0);

    private final ClusterStateMachine<S, E> machine;
    private final ConnectionSource source;
    private final StateMode mode;
    private final int maxJobs;
    private final OverdueOperations overdue;
    /** The tool's: the jobs of the table's release line's commands. */
    private final AsyncJobLookup jobLookup;

    /**
     * @param mode    the mode the management servers run (checked against the schema by the caller)
     * @param overdue the overdue check of scan, whose finds for this cluster are shown
     */
    public ClusterExplainer(ClusterStateMachine<S, E> machine, ConnectionSource source, StateMode mode, int maxJobs,
            OverdueOperations overdue) {
        this.machine = machine;
        this.source = source;
        this.mode = mode;
        this.maxJobs = maxJobs;
        this.overdue = overdue;
        this.jobLookup = new AsyncJobLookup(ClusterCommandSet.ofReleaseLine(machine.profile()));
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
        List<OverdueOperations.Overdue> late;
        List<DepartedServerJobs.Job> departed;
        List<ClusterExplanation.Cluster> namesakes = new ArrayList<>();
        try (Connection c = source.open()) {
            boolean fencedColumns = CloudStackSchema.fenceColumns(c) == CloudStackSchema.FenceColumns.ALL;
            cluster = find(c, clusterRef, fencedColumns, namesakes);
            jobs = jobs(c, cluster);
            servers = servers(c, cluster, jobs);
            for (AsyncJobLookup.ClusterJob j : jobLookup.inProgressClusterJobs(c).jobs()) {
                if (j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER) {
                    unknown.add(j.jobId());
                } else if (j.clusterId() == cluster.id()) {
                    liveClusterJobs.add(j.jobId());
                }
            }
            long id = cluster.id();
            departed = new DepartedServerJobs(jobLookup.commands(), machine.heartbeatThresholdMillis(), false).find(c).stream()
                    .filter(j -> j.clusterJob() && (j.clusterId() == id || j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER))
                    .toList();
            // A departed server's job is listed there, with its own advice, not as a live overdue one.
            Set<Long> departedJobs = DepartedServerJobs.ids(departed);
            late = overdue.find(c).stream().filter(o -> o.id() == id && !departedJobs.contains(o.jobId())).toList();
        }
        return new ClusterExplanation(cluster, jobs, servers, unknown, verdict(cluster, liveClusterJobs), late, departed,
                namesakes);
    }

    private ClusterExplanation.Verdict verdict(ClusterExplanation.Cluster cluster, List<Long> liveJobs) {
        ClusterStateScanner<S, E> scanner = new ClusterStateScanner<>(
                new KubernetesClusterStateDao<>(machine.withMode(mode), source), () -> NO_SCANNER);
        RecoveryResult<S> preview = scanner.orphanRecovery(false);
        RecoveryResult.Planned<S> planned = preview.plannedFor(cluster.id());
        if (planned != null) {
            return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.RECOVER, planned.to().name(), List.of(),
                    "the " + mode.label() + " scanner would move it " + planned.from() + " -> " + planned.to() + ": "
                            + planned.reason().description(), planned.reason().name());
        }
        boolean candidate = preview.candidateIds().contains(cluster.id());
        if (candidate && preview.kind() == RecoveryResult.Kind.WAITED) {
            return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.WAIT, null, preview.unknownJobIds(),
                    "IN_PROGRESS Kubernetes cluster job(s) " + preview.unknownJobIds() + " name no cluster the scanner"
                            + " can read: it recovers nothing of unknown ownership until they end", null);
        }
        if (candidate) {
            String why = !liveJobs.isEmpty() ? "IN_PROGRESS job(s) " + liveJobs + " name it"
                    : cluster.ownerMsid() != null ? "it is held by a live owner (msid " + cluster.ownerMsid() + ", runid "
                            + cluster.ownerRunid() + (cluster.ownerJobId() == null ? "" : ", job " + cluster.ownerJobId()) + ")"
                    : "its operation is live";
            return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.LEAVE, null, liveJobs,
                    "the " + mode.label() + " scanner leaves it: " + why, null);
        }
        String why = cluster.removed() != null ? "it is removed"
                : !ClusterStateScanner.CLOUD_MANAGED.equals(cluster.clusterType())
                        ? "it is not CloudManaged (" + cluster.clusterType() + ")"
                : machine.orphanStates().stream().noneMatch(s -> s.name().equals(cluster.state()))
                        ? cluster.state() + " is not an operation's state"
                : "it was not read as a candidate";
        return new ClusterExplanation.Verdict(ClusterExplanation.Verdict.Kind.LEAVE, null, List.of(),
                "the " + mode.label() + " scanner leaves it: " + why, null);
    }

    /**
     * The cluster CLUSTER names: an id wins, then a uuid (in any case), then a name. Names are reused
     * after a delete: a name picks the cluster that is not removed; removed namesakes count only when
     * no live cluster has the name.
     */
    private static ClusterExplanation.Cluster find(Connection c, String ref, boolean fencedColumns,
            List<ClusterExplanation.Cluster> namesakes) throws SQLException, NotFound {
        String columns = "id, uuid, name, state, cluster_type, removed"
                + (fencedColumns ? ", " + String.join(", ", CloudStackSchema.FENCE_COLUMNS) : "");
        boolean numeric = ref.matches("[0-9]{1,18}");
        String sql = "SELECT " + columns + " FROM kubernetes_cluster WHERE "
                + (numeric ? "id = ? OR " : "") + "LOWER(uuid) = LOWER(?) OR LOWER(name) = LOWER(?) ORDER BY id";
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
                            strip(rs.getString(4)), rs.getString(5), DatabaseTime.text(rs.getObject(6)),
                            fencedColumns ? rs.getLong(7) : null, fencedColumns ? nullableLong(rs, 8) : null,
                            fencedColumns ? nullableLong(rs, 9) : null, fencedColumns ? nullableLong(rs, 10) : null));
                }
            }
        }
        for (ClusterExplanation.Cluster k : found) {
            if (numeric && String.valueOf(k.id()).equals(ref) || ref.equalsIgnoreCase(k.uuid())) {
                found.stream().filter(o -> o.id() != k.id() && ref.equalsIgnoreCase(o.name())).forEach(namesakes::add);
                return k;
            }
        }
        List<ClusterExplanation.Cluster> named = found.stream().filter(k -> ref.equals(k.name())).toList();
        if (named.isEmpty()) { // no name in this exact case: any case, as MySQL's collation compares
            named = found.stream().filter(k -> ref.equalsIgnoreCase(k.name())).toList();
        }
        List<ClusterExplanation.Cluster> live = named.stream().filter(k -> k.removed() == null).toList();
        if (live.size() == 1) {
            return live.get(0);
        }
        if (live.size() > 1) {
            throw new NotFound("the name '" + ref + "' names " + live.size() + " clusters that are not removed "
                    + live.stream().map(ClusterExplanation.Cluster::id).toList() + ": give an id or uuid");
        }
        if (named.size() == 1) {
            return named.get(0);
        }
        if (named.isEmpty()) {
            throw new NotFound("no Kubernetes cluster has the id, uuid or name '" + ref + "'");
        }
        throw new NotFound("no cluster named '" + ref + "' is live, and " + named.size() + " removed clusters had the name ("
                + String.join(", ", named.stream().map(k -> k.id() + " removed " + k.removed()).toList())
                + "): give an id or uuid");
    }

    /** The jobs that name the cluster, found by the scanner's own lookup rule, newest first. */
    private List<ClusterExplanation.Job> jobs(Connection c, ClusterExplanation.Cluster cluster) throws SQLException {
        List<Long> ids = jobLookup.jobsNaming(c, cluster.id(), cluster.uuid(), maxJobs);
        if (ids.isEmpty()) {
            return List.of();
        }
        String sql = "SELECT id, job_cmd, job_status, job_result_code, job_result, job_init_msid, job_executing_msid,"
                + " created, last_updated, removed, instance_id FROM async_job WHERE id IN ("
                + String.join(", ", Collections.nCopies(ids.size(), "?")) + ") ORDER BY id DESC";
        List<ClusterExplanation.Job> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < ids.size(); i++) {
                ps.setLong(i + 1, ids.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean byInstance = rs.getObject(11) != null;
                    String result = rs.getString(5);
                    boolean encrypted = JobText.isEncrypted(result);
                    out.add(new ClusterExplanation.Job(rs.getLong(1), rs.getString(2), rs.getInt(3),
                            nullableInt(rs, 4), encrypted ? null : result, encrypted, nullableLong(rs, 6), nullableLong(rs, 7),
                            DatabaseTime.text(rs.getObject(8)), DatabaseTime.text(rs.getObject(9)),
                            DatabaseTime.text(rs.getObject(10)),
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
                            DatabaseTime.text(rs.getObject(5)), DatabaseTime.text(rs.getObject(6))));
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
}
