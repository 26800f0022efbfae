// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.tool.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.jdbc.AsyncJobLookup;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.tool.text.Json;
import org.apache.cloudstack.kubernetes.state.tool.text.Terminal;

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
        /**
         * --fail-departed-jobs, with or without --apply: not failed (no Kubernetes cluster job, created after its
         * server's last heartbeat, or of a row that says Up without --include-silent-up); {@code missed} says which.
         */
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

    /** The jobs as a dry run (WOULD_FAIL: by the rule {@code fail} applies) or a listing shows them. */
    static List<Row> listed(List<DepartedServerJobs.Job> jobs, Action action, DepartedServerJobs rule) {
        return jobs.stream().map(j -> action == Action.WOULD_FAIL && !rule.wouldFail(j)
                ? new Row(j, Action.LEFT, rule.whyLeft(j)) : new Row(j, action, null)).toList();
    }

    static List<Row> applied(List<DepartedServerJobs.Outcome> outcomes) {
        return outcomes.stream().map(o -> o.failed() ? new Row(o.job(), Action.FAILED, null)
                : o.left() ? new Row(o.job(), Action.LEFT, o.missed())
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
                    j.jobId(), Terminal.field(shortName(j.command())), Terminal.field(cluster(j)), j.jobCreated(), j.msid(),
                    Terminal.field(j.serverName()), j.why().description(), Terminal.field(j.serverState()), j.lastHeartbeat(),
                    j.silentSeconds() == null ? ""
                            : ", " + OverdueReport.duration(j.silentSeconds()) + " ago",
                    switch (r.action()) {
                        case LISTED -> j.createdAfterHeartbeat() ? ": never failed: " + j.leftBecause(true) : "";
                        case WOULD_FAIL -> ": would fail (dry run; --apply to perform)";
                        case FAILED -> ": failed (530)";
                        case MISSED -> ": missed, left (" + r.missed() + ")";
                        case LEFT -> ": left: " + (r.missed() == null ? DepartedServerJobs.NOT_A_CLUSTER_JOB : r.missed());
                    }));
        }
        // The way out of a departed server's jobs applies to a server that is Down, removed or silent, not Up.
        boolean pending = rows.stream().anyMatch(r -> (r.action() == Action.LISTED || r.action() == Action.MISSED)
                && r.job().why() != DepartedServerJobs.Why.SILENT_UP && !r.job().createdAfterHeartbeat());
        boolean silentUp = rows.stream().anyMatch(r -> r.action() != Action.FAILED && r.job().why() == DepartedServerJobs.Why.SILENT_UP);
        if (silentUp) {
            out.append("  A server whose mshost row still says Up with an old heartbeat may be stalled (a long garbage\n"
                    + "  collection, a frozen VM) rather than gone: look at it before failing its jobs. When it is gone,\n"
                    + "  cks-state scan --fail-departed-jobs --include-silent-up --apply fails them as its start would.\n");
        }
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

    static String cluster(DepartedServerJobs.Job j) {
        if (!j.clusterJob()) {
            return "not a Kubernetes cluster job";
        }
        return j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER ? "Kubernetes cluster unknown" : "Kubernetes cluster " + j.clusterId();
    }

    private static String shortName(String command) {
        return command == null ? "(no command)" : command.substring(command.lastIndexOf('.') + 1);
    }
}
