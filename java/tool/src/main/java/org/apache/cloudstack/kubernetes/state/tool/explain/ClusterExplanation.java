// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.explain;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.tool.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;

/**
 * What an operator asks about one cluster: its row, the jobs that name it, the management
 * servers involved, the jobs of unknown cluster that make the scanner wait, the scanner's verdict
 * now, and the IN_PROGRESS jobs of departed servers that hold it (naming it, or of unknown cluster).
 * Read-only; every time is the database's, as text. {@code namesakes}: the other clusters whose name is
 * the id or uuid that picked this one (an id wins over a name, and the operator should know).
 */
public record ClusterExplanation(Cluster cluster, List<Job> jobs, List<Server> servers, List<Long> unknownClusterJobIds,
        Verdict verdict, List<OverdueOperations.Overdue> overdue, List<DepartedServerJobs.Job> departedServerJobs,
        List<Cluster> namesakes) {

    /** The {@code kubernetes_cluster} row; {@code version} and owner only where the fenced columns exist. */
    public record Cluster(long id, String uuid, String name, String state, String clusterType, String removed,
            Long version, Long ownerMsid, Long ownerRunid, Long ownerJobId) {
    }

    /**
     * An {@code async_job} row that names the cluster, by {@code instance_id} or by its uuid in {@code job_cmd_info};
     * {@code result} is null where {@code resultEncrypted} (CloudStack's database encryption wrote it: never printed).
     */
    public record Job(long id, String command, int status, Integer resultCode, String result, boolean resultEncrypted,
            Long initMsid, Long executingMsid, String created, String lastUpdated, String removed, String namedBy) {
        /** CloudStack's job_status names. */
        public String statusName() {
            return switch (status) {
                case 0 -> "IN_PROGRESS";
                case 1 -> "SUCCEEDED";
                case 2 -> "FAILED";
                case 3 -> "CANCELLED";
                default -> String.valueOf(status);
            };
        }
    }

    /** An {@code mshost} row. */
    public record Server(long msid, String name, String state, long runid, String lastUpdate, String removed) {
    }

    /**
     * RECOVER (to {@code to}), WAIT (on {@code jobIds}), or LEAVE; {@code reason} says why, and a
     * recovery names its {@link org.apache.cloudstack.kubernetes.state.GoneReason} in {@code reasonCode}.
     */
    public record Verdict(Kind kind, String to, List<Long> jobIds, String reason, String reasonCode) {
        public enum Kind { RECOVER, WAIT, LEAVE }

        public Verdict {
            jobIds = List.copyOf(jobIds);
        }
    }

    public ClusterExplanation {
        jobs = List.copyOf(jobs);
        servers = List.copyOf(servers);
        unknownClusterJobIds = List.copyOf(unknownClusterJobIds);
        overdue = List.copyOf(overdue);
        namesakes = List.copyOf(namesakes);
    }
}
