package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds the IN_PROGRESS ({@code job_status = 0}) async jobs that act on Kubernetes clusters, with
 * the cluster each acts on, in a constant number of statements: one query for the jobs, plus one
 * query resolving the uuids of the jobs whose {@code instance_id} is NULL (one per
 * {@value #UUID_CHUNK} such jobs). Removed (soft-deleted) job rows are included, as are removed
 * clusters when resolving a uuid.
 *
 * <p>Which jobs: {@code instance_type = 'KubernetesCluster'}; and, going beyond upstream to be safe
 * with servers that record no resource type at all, jobs with a NULL {@code instance_type} whose
 * {@code job_cmd} is a class of the CKS cluster command package ({@code ...kubernetes.cluster...Cmd}).
 *
 * <p>The cluster of a job: {@code instance_id} when set; else the top-level {@code "id"} uuid of
 * {@code job_cmd_info} looked up in {@code kubernetes_cluster.uuid} (older servers write NULL
 * there: we recover those clusters instead of waiting; uuids compare case-insensitively, as in
 * MySQL's default collation); else unknown ({@link #UNKNOWN_CLUSTER}),
 * which makes the scanner wait. Malformed {@code job_cmd_info} only makes a job unknown.
 */
public final class AsyncJobLookup {
    /** The cluster id reported for a job whose cluster cannot be determined. */
    public static final long UNKNOWN_CLUSTER = -1L;
    /** At most this many uuids per resolving query. */
    public static final int UUID_CHUNK = 500;

    /** job_status of a job still in progress. */
    public static final int IN_PROGRESS = 0;
    /** instance_type of the CKS cluster commands. */
    public static final String INSTANCE_TYPE = "KubernetesCluster";

    static final String JOBS_SQL = "SELECT id, instance_id, CASE WHEN instance_id IS NULL THEN job_cmd_info END"
            + " FROM async_job WHERE job_status = " + IN_PROGRESS
            + " AND (instance_type = '" + INSTANCE_TYPE + "'"
            + " OR (instance_type IS NULL AND job_cmd LIKE '%.kubernetes.cluster.%Cmd'))";

    /** How the cluster of a job was found. */
    public enum Source { INSTANCE_ID, CMD_INFO_UUID, UNKNOWN }

    /** One IN_PROGRESS cluster job; {@code clusterId} is {@link #UNKNOWN_CLUSTER} when unknown. */
    public record ClusterJob(long jobId, long clusterId, Source source) {
    }

    /** The result of one lookup. */
    public record ClusterJobs(List<ClusterJob> jobs) {
        public ClusterJobs {
            jobs = List.copyOf(jobs);
        }

        /** The jobs' ids, in the order of {@link #clusterIds()}. */
        public long[] jobIds() {
            long[] ids = new long[jobs.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = jobs.get(i).jobId();
            }
            return ids;
        }

        /** The cluster id of each job, {@link #UNKNOWN_CLUSTER} for unknown: the input of planRecovery. */
        public long[] clusterIds() {
            long[] ids = new long[jobs.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = jobs.get(i).clusterId();
            }
            return ids;
        }

        /** True when some job's cluster is unknown. */
        public boolean anyUnknown() {
            return jobs.stream().anyMatch(j -> j.clusterId() == UNKNOWN_CLUSTER);
        }
    }

    /** Runs the lookup on the caller's connection (its transaction, if any, is left open). */
    public ClusterJobs inProgressClusterJobs(Connection connection) throws SQLException {
        List<long[]> rows = new ArrayList<>(); // jobId, instanceId or -1
        List<String> uuids = new ArrayList<>(); // parallel: uuid when instance_id is NULL
        try (PreparedStatement ps = connection.prepareStatement(JOBS_SQL); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long jobId = rs.getLong(1);
                long instanceId = rs.getLong(2);
                boolean hasInstance = !rs.wasNull();
                String uuid = hasInstance ? null : JobCmdInfo.clusterUuid(rs.getString(3));
                rows.add(new long[] {jobId, hasInstance ? instanceId : UNKNOWN_CLUSTER});
                uuids.add(uuid);
            }
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (String u : uuids) {
            if (u != null) {
                wanted.add(u);
            }
        }
        Map<String, Long> byUuid = resolve(connection, wanted);
        List<ClusterJob> jobs = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            long jobId = rows.get(i)[0];
            long instanceId = rows.get(i)[1];
            if (instanceId != UNKNOWN_CLUSTER) {
                jobs.add(new ClusterJob(jobId, instanceId, Source.INSTANCE_ID));
                continue;
            }
            Long resolved = uuids.get(i) == null ? null : byUuid.get(uuids.get(i).toLowerCase(Locale.ROOT));
            jobs.add(resolved == null ? new ClusterJob(jobId, UNKNOWN_CLUSTER, Source.UNKNOWN)
                    : new ClusterJob(jobId, resolved, Source.CMD_INFO_UUID));
        }
        return new ClusterJobs(jobs);
    }

    private static Map<String, Long> resolve(Connection connection, Set<String> uuids) throws SQLException {
        if (uuids.isEmpty()) {
            return Collections.emptyMap();
        }
        Map<String, Long> out = new HashMap<>();
        List<String> all = new ArrayList<>(uuids);
        for (int from = 0; from < all.size(); from += UUID_CHUNK) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + UUID_CHUNK));
            StringBuilder sql = new StringBuilder("SELECT id, uuid FROM kubernetes_cluster WHERE uuid IN (");
            for (int i = 0; i < chunk.size(); i++) {
                sql.append(i == 0 ? "?" : ", ?");
            }
            sql.append(')');
            try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setString(i + 1, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(2).toLowerCase(Locale.ROOT), rs.getLong(1));
                    }
                }
            }
        }
        return out;
    }
}
