// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import org.apache.cloudstack.kubernetes.state.tool.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.tool.scan.StuckClusterScan;
import org.apache.cloudstack.kubernetes.state.sql.JobText;
import org.apache.cloudstack.kubernetes.state.tool.text.Json;
import org.apache.cloudstack.kubernetes.state.tool.text.Terminal;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * What {@code cks-state scan} found and did. With {@code --apply} in text, each change is printed as
 * it commits ({@code live}), so that an interrupted run has said what it changed; the report at the
 * end then sums it up.
 */
final class ScanReport {
    private final boolean apply;
    /** Where each committed change is printed at once (applying, in text), else null. */
    private final PrintWriter live;
    private boolean recoveryHeader;
    private int recovered;
    private int missed;

    ModeOption.Resolved mode;
    TableOption.Resolved table;
    List<DepartedReport.Row> departed = List.of();
    /** The departed servers' jobs a signal left before their turn. */
    List<DepartedServerJobs.Job> departedLeft = List.of();
    /** The pass's outcome; null when a signal stopped it. */
    StuckClusterScan.Result result;
    /** The clusters a signal left before their compare-and-set. */
    List<Long> recoveriesLeft = List.of();
    List<OverdueOperations.Overdue> overdue = List.of();
    boolean interrupted;
    /** A signal came before the recovery pass, which then did not run. */
    boolean recoveryPassSkipped;

    ScanReport(boolean apply, PrintWriter textOut) {
        this.apply = apply;
        this.live = apply ? textOut : null;
    }

    /** The report's first lines, at once when applying (before anything is written). */
    void started() {
        if (live != null) {
            live.print(header());
            live.flush();
        }
    }

    void departedCommitted(DepartedServerJobs.Outcome o) {
        if (live != null && o.failed()) {
            live.printf(Locale.ROOT, "failed job %d (%d) of %s: its server is gone%n", o.job().jobId(),
                    DepartedServerJobs.RESULT_CODE, Terminal.field(DepartedReport.cluster(o.job())));
            live.flush();
        }
    }

    void recoveryCommitted(StuckClusterScan<State, Event> scan, long clusterId, boolean hit) {
        if (hit) {
            recovered++;
        } else {
            missed++;
        }
        if (live == null) {
            return;
        }
        if (!recoveryHeader) {
            live.println("recovered (compare-and-set, each as it commits):");
            recoveryHeader = true;
        }
        String[] uuidAndName;
        try {
            uuidAndName = scan.uuidAndName(clusterId);
        } catch (SQLException e) {
            uuidAndName = new String[2];
        }
        live.printf(Locale.ROOT, "  %d %s %s: %s%n", clusterId, Terminal.field(uuidAndName[0]), Terminal.field(uuidAndName[1]),
                hit ? "done" : "missed (the cluster moved on), left");
        live.flush();
    }

    private String header() {
        return "mode: " + mode.label() + " (" + mode.how() + ")\n" + table.line() + "\n" + table.commandsLine() + "\n";
    }

    String text() {
        StringBuilder out = new StringBuilder(live == null ? header() : "");
        if (interrupted) {
            out.append(String.format(Locale.ROOT, "interrupted by a signal, after the change in flight: %d cluster(s) recovered,"
                    + " %d missed; left untouched: %d departed server job(s) %s, %s. Run the same command again"
                    + " to finish.%n", recovered, missed, departedLeft.size(), departedLeft.stream()
                    .map(DepartedServerJobs.Job::jobId).toList(), recoveryPassSkipped ? "and the recovery pass did not run"
                    : recoveriesLeft.size() + " cluster(s) " + recoveriesLeft));
        } else if (result.waiting()) {
            out.append("waiting: IN_PROGRESS Kubernetes cluster job(s) ").append(result.unknownJobIds())
                    .append(" of unknown cluster").append(result.encryptedJobIds().isEmpty() ? ""
                            : " (job_cmd_info " + JobText.ENCRYPTED + ": " + result.encryptedJobIds() + ")")
                    .append(": recovering nothing now\n");
        } else if (result.recoveries().isEmpty()) {
            out.append(nothingStuck()).append('\n');
        } else if (live != null) {
            out.append(String.format(Locale.ROOT, "%d cluster(s) recovered, %d missed (moved on since they were read)%n",
                    recovered, missed));
        } else {
            out.append(apply ? "recovered (compare-and-set):\n" : "would recover (dry run; --apply to perform)"
                    + (departed.stream().anyMatch(r -> r.action() == DepartedReport.Action.WOULD_FAIL)
                    ? ", once the departed servers' jobs below are failed" : "") + ":\n");
            for (StuckClusterScan.Finding f : result.recoveries()) {
                out.append(String.format(Locale.ROOT, "  %d %s %s: %s -> %s: %s [%s]%s%n", f.id(), Terminal.field(f.uuid()),
                        Terminal.field(f.name()), Terminal.field(f.state()), f.to(), f.reason().description(),
                        f.reason().name(), f.applied() == null ? "" : f.applied() ? ": done"
                                : ": missed (the cluster moved on), left"));
            }
        }
        out.append(OverdueReport.text(overdue));
        out.append(DepartedReport.text(departed));
        return out.toString();
    }

    /** "No stuck cluster", with the clusters left alone and why. */
    private String nothingStuck() {
        int live = result.candidates();
        return live == 0 ? "no stuck Kubernetes cluster: none is in an operation's state"
                : String.format(Locale.ROOT, "no stuck Kubernetes cluster: %d cluster(s) in an operation's state, left alone:"
                        + " each has a live operation (an IN_PROGRESS job names it%s)", live,
                        mode.mode() == org.apache.cloudstack.kubernetes.state.StateMode.FENCED
                                ? ", or the server that holds it is alive" : "");
    }

    String json() {
        StringBuilder out = new StringBuilder("{\"mode\": ").append(Json.quote(mode.label()))
                .append(", \"mode_chosen\": ").append(Json.quote(mode.how()))
                .append(", ").append(table.json()).append(", ").append(table.commandsJson());
        if (interrupted) {
            out.append(", \"interrupted\": true, \"recovered\": ").append(recovered).append(", \"missed\": ").append(missed)
                    .append(", \"departed_jobs_left\": ").append(departedLeft.stream().map(DepartedServerJobs.Job::jobId).toList())
                    .append(", \"clusters_left\": ").append(recoveriesLeft)
                    .append(", \"recovery_pass_ran\": ").append(!recoveryPassSkipped);
        } else {
            out.append(", \"waiting\": ").append(result.waiting())
                    .append(", \"unknown_jobs\": ").append(result.unknownJobIds())
                    .append(", \"encrypted_jobs\": ").append(result.encryptedJobIds())
                    .append(", \"in_operation_states\": ").append(result.candidates()).append(", \"recoveries\": [");
            String sep = "";
            for (StuckClusterScan.Finding f : result.recoveries()) {
                out.append(sep).append("{\"id\": ").append(f.id()).append(", \"uuid\": ").append(Json.quote(f.uuid()))
                        .append(", \"name\": ").append(Json.quote(f.name())).append(", \"state\": ").append(Json.quote(f.state()))
                        .append(", \"to\": ").append(Json.quote(f.to()))
                        .append(", \"reason\": ").append(Json.quote(f.reason().description()))
                        .append(", \"reason_code\": ").append(Json.quote(f.reason().name()));
                if (f.applied() != null) {
                    out.append(", \"applied\": ").append(f.applied());
                }
                out.append('}');
                sep = ", ";
            }
            out.append(']');
        }
        return out.append(", \"overdue\": ").append(OverdueReport.json(overdue))
                .append(", \"departed_server_jobs\": ").append(DepartedReport.json(departed)).append("}\n").toString();
    }
}
