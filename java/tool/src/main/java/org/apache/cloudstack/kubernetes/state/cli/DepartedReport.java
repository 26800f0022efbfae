// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.cli;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.internal.AsyncJobLookup;
import org.apache.cloudstack.kubernetes.state.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.text.Json;

/** The IN_PROGRESS jobs of departed management servers as scan and explain print them. */
final class DepartedReport {
    /** What is done to a listed job. */
    enum Action {
        /** Only listed (scan without --fail-departed-jobs, explain). */
        LISTED,
        /** --fail-departed-jobs without --apply. */
        WOULD_FAIL,
        FAILED,
        /** --fail-departed-jobs --apply, and the compare-and-set missed (or a database error). */
        MISSED,
        /** --fail-departed-jobs, with or without --apply: no Kubernetes cluster job, left to its server's start. */
        LEFT
    }

    /** One listed job and what was done to it; {@code missed} says why a compare-and-set missed. */
    record Row(DepartedServerJobs.Job job, Action action, String missed) {
    }

    private DepartedReport() {
    }

    /** The overdue operations whose job is not a departed server's (that one is listed, with its own advice). */
    static List<OverdueOperations.Overdue> withoutDeparted(List<OverdueOperations.Overdue> overdue, List<Row> departed) {
        Set<Long> gone = DepartedServerJobs.ids(departed.stream().map(Row::job).toList());
        return overdue.stream().filter(o -> !gone.contains(o.jobId())).toList();
    }

    static List<Row> listed(List<DepartedServerJobs.Job> jobs, Action action) {
        return jobs.stream().map(j -> new Row(j, action == Action.WOULD_FAIL && !j.clusterJob() ? Action.LEFT : action,
                null)).toList();
    }

    static List<Row> applied(List<DepartedServerJobs.Outcome> outcomes) {
        return outcomes.stream().map(o -> o.failed() ? new Row(o.job(), Action.FAILED, null)
                : !o.job().clusterJob() ? new Row(o.job(), Action.LEFT, null)
                : new Row(o.job(), Action.MISSED, o.error() == null ? o.missed()
                        : o.missed() + ": " + DatabaseErrors.reason(o.error()))).toList();
    }

    /** A section of its own (nothing when there is none). */
    static String text(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("departed_server_jobs: IN_PROGRESS jobs of management servers that are gone:\n");
        for (Row r : rows) {
            DepartedServerJobs.Job j = r.job();
            out.append(String.format(Locale.ROOT, "  job %d %s, %s, created %s; msid %d %s: %s (%s, last heartbeat %s%s)%s%n",
                    j.jobId(), shortName(j.command()), cluster(j), j.jobCreated(), j.msid(), j.serverName(), j.why().description(),
                    j.serverState(), j.lastHeartbeat(), j.silentSeconds() == null ? ""
                            : ", " + OverdueReport.duration(j.silentSeconds()) + " ago",
                    switch (r.action()) {
                        case LISTED -> "";
                        case WOULD_FAIL -> ": would fail (dry run; --apply to perform)";
                        case FAILED -> ": failed (530)";
                        case MISSED -> ": missed, left (" + r.missed() + ")";
                        case LEFT -> ": left to its server's start, which also cleans up its resources";
                    }));
        }
        boolean pending = rows.stream().anyMatch(r -> r.action() != Action.FAILED);
        if (pending) {
            out.append("  CloudStack fails a server's jobs when that server starts again; a peer that sees it leave does not\n"
                    + "  (AsyncJobManagerImpl.onManagementNodeLeft passes the mshost row id, not the msid), and they stay\n"
                    + "  IN_PROGRESS until a peer's job GC deletes them (job.expire.minutes, default a day): until then the\n"
                    + "  status scanner recovers no cluster such a job names. Start that management server again (its start\n"
                    + "  also cleans up the resources of its other jobs), or run cks-state scan --fail-departed-jobs --apply,\n"
                    + "  which fails the Kubernetes cluster jobs as its start would (result 530); the recovery pass that\n"
                    + "  follows then sees them ended.\n");
        }
        return out.toString();
    }

    static String json(List<Row> rows) {
        StringBuilder out = new StringBuilder("[");
        String sep = "";
        for (Row r : rows) {
            DepartedServerJobs.Job j = r.job();
            out.append(sep).append("{\"job_id\": ").append(j.jobId()).append(", \"job_uuid\": ").append(Json.quote(j.jobUuid()))
                    .append(", \"command\": ").append(Json.quote(j.command()))
                    .append(", \"cluster_job\": ").append(j.clusterJob())
                    .append(", \"cluster_id\": ").append(j.clusterId() == null || j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER
                            ? "null" : j.clusterId())
                    .append(", \"created\": ").append(Json.quote(j.jobCreated()))
                    .append(", \"msid\": ").append(j.msid()).append(", \"server_name\": ").append(Json.quote(j.serverName()))
                    .append(", \"server_state\": ").append(Json.quote(j.serverState()))
                    .append(", \"server_removed\": ").append(Json.quote(j.serverRemoved()))
                    .append(", \"last_heartbeat\": ").append(Json.quote(j.lastHeartbeat()))
                    .append(", \"silent_seconds\": ").append(j.silentSeconds())
                    .append(", \"why\": ").append(Json.quote(j.why().description()))
                    .append(", \"why_code\": ").append(Json.quote(j.why().name()))
                    .append(", \"action\": ").append(Json.quote(r.action().name().toLowerCase(Locale.ROOT)));
            if (r.missed() != null) {
                out.append(", \"missed\": ").append(Json.quote(r.missed()));
            }
            out.append('}');
            sep = ", ";
        }
        return out.append(']').toString();
    }

    private static String cluster(DepartedServerJobs.Job j) {
        if (!j.clusterJob()) {
            return "not a Kubernetes cluster job";
        }
        return j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER ? "Kubernetes cluster unknown" : "Kubernetes cluster " + j.clusterId();
    }

    private static String shortName(String command) {
        return command == null ? "(no command)" : command.substring(command.lastIndexOf('.') + 1);
    }
}
