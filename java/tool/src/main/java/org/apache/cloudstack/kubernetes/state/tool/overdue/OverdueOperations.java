// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.overdue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.jdbc.AsyncJobLookup;
import org.apache.cloudstack.kubernetes.state.tool.settings.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;
import org.apache.cloudstack.kubernetes.state.sql.InChunks;

/**
 * Live operations past CloudStack's time limit: a cluster in an operation's state (or Destroying)
 * whose IN_PROGRESS job has run longer than CloudStack allows that operation. The status scanner
 * leaves such a cluster alone (its job is alive); an operator needs to know. Reads only; ages are
 * the database's ({@code TIMESTAMPDIFF} against {@link DatabaseClock}'s now, CloudStack's UTC), never this
 * machine's clock.
 */
public final class OverdueOperations {
    /** CloudStack's settings (KubernetesClusterService), seconds. */
    public static final String START_TIMEOUT = "cloud.kubernetes.cluster.start.timeout";
    public static final String SCALE_TIMEOUT = "cloud.kubernetes.cluster.scale.timeout";
    public static final String UPGRADE_TIMEOUT = "cloud.kubernetes.cluster.upgrade.timeout";
    /** Their default, and the default of --overdue-after. */
    public static final long DEFAULT_SECONDS = 3600;
    /** The limit of an operation CloudStack has no setting for. */
    public static final String OVERDUE_AFTER = "--overdue-after";

    /** Which limit each operation state has; every other listed state has {@link #OVERDUE_AFTER}. */
    private static final Map<String, String> SETTING_OF_STATE = Map.of("Starting", START_TIMEOUT, "Scaling", SCALE_TIMEOUT,
            "ScalingStoppedCluster", SCALE_TIMEOUT, "Upgrading", UPGRADE_TIMEOUT);

    /** One live operation past its limit; {@code limit} names the setting (or option) the limit comes from. */
    public record Overdue(long id, String uuid, String name, String state, long jobId, Long msid, long runningSeconds,
            long timeoutSeconds, String limit) {
    }

    private final List<String> states;
    private final long overdueAfterSeconds;
    private final AsyncJobLookup jobLookup;

    /**
     * @param commands            the commands whose jobs hold a cluster
     * @param operationStates     the states of a running operation (the machine's orphan states)
     * @param overdueAfterSeconds the limit of operations CloudStack has no timeout for (Destroying too)
     */
    public OverdueOperations(ClusterCommandSet commands, Collection<String> operationStates, long overdueAfterSeconds) {
        this.jobLookup = new AsyncJobLookup(commands);
        if (overdueAfterSeconds <= 0) {
            throw new IllegalArgumentException(OVERDUE_AFTER + " must be positive");
        }
        List<String> all = new ArrayList<>(operationStates);
        if (!all.contains("Destroying")) {
            all.add("Destroying");
        }
        this.states = List.copyOf(all);
        this.overdueAfterSeconds = overdueAfterSeconds;
    }

    /** The overdue operations, by cluster id; at most 4 statements plus one per {@value InChunks#SIZE} live jobs. */
    public List<Overdue> find(Connection c) throws SQLException {
        Map<Long, String[]> clusters = clustersInOperation(c);
        if (clusters.isEmpty()) {
            return List.of();
        }
        Map<Long, Long> clusterOfJob = new LinkedHashMap<>();
        for (AsyncJobLookup.ClusterJob j : jobLookup.inProgressClusterJobs(c).jobs()) {
            if (clusters.containsKey(j.clusterId())) {
                clusterOfJob.put(j.jobId(), j.clusterId());
            }
        }
        if (clusterOfJob.isEmpty()) {
            return List.of();
        }
        Map<String, Long> limits = limits(c);
        List<Overdue> out = new ArrayList<>();
        InChunks.query(c, "SELECT id, COALESCE(job_executing_msid, job_init_msid), TIMESTAMPDIFF(SECOND, created, "
                + DatabaseClock.utcNow(c) + ")"
                + " FROM async_job WHERE id IN ", "", new ArrayList<>(clusterOfJob.keySet()), InChunks.LONGS, rs -> {
                    long jobId = rs.getLong(1);
                    long msid = rs.getLong(2);
                    Long server = rs.wasNull() ? null : msid;
                    long running = rs.getLong(3);
                    long clusterId = clusterOfJob.get(jobId);
                    String[] k = clusters.get(clusterId);
                    String setting = SETTING_OF_STATE.getOrDefault(k[2], OVERDUE_AFTER);
                    long limit = setting.equals(OVERDUE_AFTER) ? overdueAfterSeconds : limits.get(setting);
                    if (running > limit) {
                        out.add(new Overdue(clusterId, k[0], k[1], k[2], jobId, server, running, limit, setting));
                    }
                });
        out.sort((a, b) -> a.id() != b.id() ? Long.compare(a.id(), b.id()) : Long.compare(a.jobId(), b.jobId()));
        return out;
    }

    /** uuid, name, state of each not removed cluster in an operation's state. */
    private Map<Long, String[]> clustersInOperation(Connection c) throws SQLException {
        Map<Long, String[]> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, uuid, name, state FROM kubernetes_cluster"
                + " WHERE removed IS NULL AND state IN (" + String.join(", ", Collections.nCopies(states.size(), "?"))
                + ") ORDER BY id")) {
            for (int i = 0; i < states.size(); i++) {
                ps.setString(i + 1, states.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), new String[] {rs.getString(2), rs.getString(3), rs.getString(4).strip()});
                }
            }
        }
        return out;
    }

    /**
     * CloudStack's three timeouts as the server has them: {@code value}, else {@code default_value},
     * else {@value #DEFAULT_SECONDS}; the default too without a {@code configuration} table, or for
     * a value that is not a whole number of seconds.
     */
    public static Map<String, Long> limits(Connection c) throws SQLException {
        List<String> keys = List.of(START_TIMEOUT, SCALE_TIMEOUT, UPGRADE_TIMEOUT);
        Map<String, String> values = CloudStackConfiguration.values(c, keys);
        Map<String, Long> out = new HashMap<>();
        for (String key : keys) {
            out.put(key, CloudStackConfiguration.positive(values, key, DEFAULT_SECONDS));
        }
        return out;
    }
}
