// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
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
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.sql.JobCmdInfo;
import org.apache.cloudstack.kubernetes.state.sql.JobText;
import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * Finds the IN_PROGRESS ({@code job_status = 0}) async jobs that act on Kubernetes clusters, with
 * the cluster each acts on, in a constant number of statements: one query for the jobs, plus one
 * query resolving the uuids of the jobs whose {@code instance_id} is NULL (one per
 * {@value #UUID_CHUNK} such jobs). Removed (soft-deleted) job rows are included, as are removed
 * clusters when resolving a uuid.
 *
 * <p>Which jobs: those whose {@code job_cmd} is one of the {@link ClusterCommandSet} given, whatever
 * {@code instance_type} says: CloudStack 4.14 to 4.19.0 write {@code 'None'} there for the CKS
 * commands, 4.19.1 and later {@code 'KubernetesCluster'}, a command without a resource type NULL.
 *
 * <p>The cluster of a job: {@code instance_id} when set (create, delete, add and remove nodes
 * always; start, stop, scale and upgrade since the upstream change); else the top-level
 * {@code "id"} of {@code job_cmd_info}, the cluster's uuid as the API call gave it, looked up in
 * {@code kubernetes_cluster.uuid} (uuids compare case-insensitively, as in MySQL's default
 * collation; a numeric {@code "id"} is a create command's database id, and then its
 * {@code "uuid"} member is used); else unknown ({@link #UNKNOWN_CLUSTER}), which makes the scanner
 * wait. Malformed {@code job_cmd_info} only makes a job unknown.
 */
public final class AsyncJobLookup {
    /** The cluster id reported for a job whose cluster cannot be determined. */
    public static final long UNKNOWN_CLUSTER = -1L;
    /** At most this many uuids per resolving query. */
    public static final int UUID_CHUNK = 500;

    /** job_status of a job still in progress. */
    public static final int IN_PROGRESS = 0;

    private final ClusterCommandSet commands;
    private final String jobsSql;
    private final String namingSql;

    /** A lookup of the jobs of {@code commands}. */
    public AsyncJobLookup(ClusterCommandSet commands) {
        this.commands = Arguments.required(commands, "commands");
        String clusterJob = clusterJob(commands);
        this.jobsSql = "SELECT id, instance_id, CASE WHEN instance_id IS NULL THEN job_cmd_info END"
                + " FROM async_job WHERE job_status = " + IN_PROGRESS + " AND " + clusterJob + " ORDER BY id";
        // Jobs of any status that may name one cluster; names() decides (the LIKE only narrows).
        this.namingSql = "SELECT id, instance_id, CASE WHEN instance_id IS NULL THEN job_cmd_info END"
                + " FROM async_job WHERE " + clusterJob + " AND (instance_id = ? OR (instance_id IS NULL"
                + " AND LOWER(job_cmd_info) LIKE ?)) ORDER BY id DESC";
    }

    /** The commands whose jobs this lookup finds. */
    public ClusterCommandSet commands() {
        return commands;
    }

    /**
     * The jobs of the commands (see the class comment), as parameters bound by {@link #bindCommands}. The
     * instance_type test admits every value CloudStack writes for them (older releases 'None', a command
     * without a resource type NULL), and lets CloudStack's index {@code i_async_job__instance_type__job_status}
     * (4.20.1+) read only the IN_PROGRESS ones.
     */
    private static String clusterJob(ClusterCommandSet commands) {
        return "(instance_type IS NULL OR instance_type IN ('None'" + ", ?".repeat(commands.resourceTypes().size())
                + ")) AND job_cmd IN (" + String.join(", ", Collections.nCopies(commands.commands().size(), "?")) + ")";
    }

    /** Binds {@link #clusterJob}'s parameters from 1; the next free index. */
    private int bindCommands(PreparedStatement ps) throws SQLException {
        int i = 1;
        for (String type : commands.resourceTypes()) {
            ps.setString(i++, type);
        }
        for (String cmd : commands.classNames()) {
            ps.setString(i++, cmd);
        }
        return i;
    }

    /**
     * How the cluster of a job was found: by instance_id, by the uuid of job_cmd_info, or not at all
     * (ENCRYPTED: job_cmd_info is ciphertext, {@link JobText}, and nothing is read from it).
     */
    public enum Source { INSTANCE_ID, CMD_INFO_UUID, UNKNOWN, ENCRYPTED }

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
    }

    /** Runs the lookup on the caller's connection (its transaction, if any, is left open). */
    public ClusterJobs inProgressClusterJobs(Connection connection) throws SQLException {
        List<long[]> rows = new ArrayList<>(); // jobId, instanceId or -1, 1 when job_cmd_info is ciphertext
        List<String> uuids = new ArrayList<>(); // parallel: uuid when instance_id is NULL
        try (PreparedStatement ps = connection.prepareStatement(jobsSql)) {
            bindCommands(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long jobId = rs.getLong(1);
                    long instanceId = rs.getLong(2);
                    boolean hasInstance = !rs.wasNull();
                    String cmdInfo = hasInstance ? null : rs.getString(3);
                    boolean encrypted = JobText.isEncrypted(cmdInfo);
                    rows.add(new long[] {jobId, hasInstance ? instanceId : UNKNOWN_CLUSTER, encrypted ? 1 : 0});
                    uuids.add(encrypted ? null : JobCmdInfo.clusterUuid(cmdInfo));
                }
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
            Source unknown = rows.get(i)[2] == 1 ? Source.ENCRYPTED : Source.UNKNOWN;
            jobs.add(resolved == null ? new ClusterJob(jobId, UNKNOWN_CLUSTER, unknown)
                    : new ClusterJob(jobId, resolved, Source.CMD_INFO_UUID));
        }
        return new ClusterJobs(jobs);
    }

    /**
     * The ids of the jobs of any status that name this cluster by the rule the scanner applies to
     * IN_PROGRESS jobs (its {@code instance_id}, else its uuid as the {@code "id"} of
     * {@code job_cmd_info}), newest first, at most {@code limit}.
     */
    public List<Long> jobsNaming(Connection connection, long clusterId, String clusterUuid, int limit)
            throws SQLException {
        String uuid = clusterUuid == null || clusterUuid.isBlank() ? null : clusterUuid.toLowerCase(Locale.ROOT);
        List<Long> out = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(namingSql)) {
            int next = bindCommands(ps);
            ps.setLong(next, clusterId);
            // No uuid: a pattern no job_cmd_info matches (LIKE's escape character is '\').
            ps.setString(next + 1, uuid == null ? "" : "%" + uuid.replace("\\", "\\\\").replace("%", "\\%")
                    .replace("_", "\\_") + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && out.size() < limit) {
                    long instanceId = rs.getLong(2);
                    boolean hasInstance = !rs.wasNull();
                    if (names(clusterId, uuid, hasInstance ? instanceId : UNKNOWN_CLUSTER, rs.getString(3))) {
                        out.add(rs.getLong(1));
                    }
                }
            }
        }
        return out;
    }

    /** The scanner's rule: a job names the cluster of its instance_id, else the cluster of its command's "id". */
    private static boolean names(long clusterId, String lowerUuid, long instanceId, String cmdInfo) {
        if (instanceId != UNKNOWN_CLUSTER) {
            return instanceId == clusterId;
        }
        String named = JobText.isEncrypted(cmdInfo) ? null : JobCmdInfo.clusterUuid(cmdInfo);
        return lowerUuid != null && named != null && named.toLowerCase(Locale.ROOT).equals(lowerUuid);
    }

    private static Map<String, Long> resolve(Connection connection, Set<String> uuids) throws SQLException {
        if (uuids.isEmpty()) {
            return Collections.emptyMap();
        }
        Map<String, Long> out = new HashMap<>();
        List<String> all = new ArrayList<>(uuids);
        for (int from = 0; from < all.size(); from += UUID_CHUNK) {
            // Each uuid as written, in lower and in upper case: a database whose collation compares
            // case (H2) finds what MySQL's default collation finds. CloudStack has no index on
            // kubernetes_cluster.uuid: each chunk reads the cluster table once.
            Set<String> variants = new LinkedHashSet<>();
            for (String u : all.subList(from, Math.min(all.size(), from + UUID_CHUNK))) {
                variants.add(u);
                variants.add(u.toLowerCase(Locale.ROOT));
                variants.add(u.toUpperCase(Locale.ROOT));
            }
            List<String> chunk = new ArrayList<>(variants);
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
