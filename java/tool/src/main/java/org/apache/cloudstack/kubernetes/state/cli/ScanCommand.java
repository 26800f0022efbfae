// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.internal.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.internal.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.internal.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException;
import org.apache.cloudstack.kubernetes.state.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.scan.StuckClusterScan;
import org.apache.cloudstack.kubernetes.state.text.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cks-state scan}: stuck clusters of a CloudStack database, and the way out. */
@Command(name = "scan", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Find the Kubernetes clusters the status scanner would recover: in an operation's state"
                + " (Starting, Scaling, Upgrading, ...) whose operation is provably gone. Dry run unless --apply, which"
                + " fails each by compare-and-set (to Alert; CloudStack's Alert reconciliation then returns a healthy"
                + " cluster to Running). Only CloudManaged, not removed clusters; never one with a live job. Also lists"
                + " live operations past CloudStack's time limit (never written), and the IN_PROGRESS jobs of management"
                + " servers that are gone (Down, removed, or silent past cluster.heartbeat.threshold), which CloudStack"
                + " fails when that server starts again: --fail-departed-jobs --apply fails their Kubernetes cluster jobs"
                + " as that start would, before the recovery pass."})
final class ScanCommand implements Callable<Integer> {
    /** Output formats. */
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOptions database;

    @Mixin
    ModeOption modeOption;

    @Mixin
    TableOption tableOption;

    @Option(names = "--apply", description = "perform the compare-and-sets (default: dry run, read only)")
    boolean apply;

    @Option(names = "--overdue-after", paramLabel = "SECONDS", defaultValue = "" + OverdueOperations.DEFAULT_SECONDS,
            description = "report a live operation CloudStack has no timeout for (stop, destroy, add or remove nodes,"
                    + " recover) when its job has run longer than this (default: ${DEFAULT-VALUE})")
    long overdueAfter;

    @Option(names = "--fail-departed-jobs", description = "fail the IN_PROGRESS Kubernetes cluster jobs of departed"
            + " management servers as CloudStack's cleanupLeftOverJobs does at that server's start (with --apply; a dry"
            + " run without)")
    boolean failDepartedJobs;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        if (overdueAfter <= 0) {
            throw new ParameterException(spec.commandLine(), "--overdue-after must be positive");
        }
        OperatorDatabase db = database.database(spec, apply);
        ClusterStateMachine<State, Event> machine;
        ModeOption.Resolved mode;
        TableOption.Resolved table;
        StuckClusterScan.Result result;
        List<OverdueOperations.Overdue> overdue;
        List<DepartedReport.Row> departed;
        try (Connection c = db.connect(spec.commandLine().getErr())) {
            mode = modeOption.resolve(c);
            table = tableOption.resolve(c, apply);
            long threshold = CloudStackConfiguration.heartbeatThresholdMillis(c);
            machine = ClusterStateMachine.bind(State.class, Event.class, table.profile()).withHeartbeatThreshold(threshold);
            DepartedServerJobs departedJobs = new DepartedServerJobs(threshold);
            List<DepartedServerJobs.Job> gone = departedJobs.find(c);
            departed = !failDepartedJobs ? DepartedReport.listed(gone, DepartedReport.Action.LISTED)
                    : apply ? DepartedReport.applied(departedJobs.fail(db.source(), gone))
                    : DepartedReport.listed(gone, DepartedReport.Action.WOULD_FAIL);
            result = new StuckClusterScan<>(machine, db.source(), mode.mode()).run(apply);
            overdue = DepartedReport.withoutDeparted(new OverdueOperations(machine.orphanStates().stream()
                    .map(Enum::name).toList(), overdueAfter).find(c), departed);
        } catch (SQLException | StateStoreException e) {
            throw new ToolFailure((apply ? "recovering the stuck clusters of " : "reading the clusters of ")
                    + db.describe() + ": " + DatabaseErrors.reason(e));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == Format.json ? json(mode, table, result, overdue, departed)
                : text(mode, table, result, overdue, departed));
        out.flush();
        return 0;
    }

    private String text(ModeOption.Resolved mode, TableOption.Resolved table, StuckClusterScan.Result result,
            List<OverdueOperations.Overdue> overdue, List<DepartedReport.Row> departed) {
        StringBuilder out = new StringBuilder("mode: ").append(mode.label()).append(" (").append(mode.how()).append(")\n")
                .append(table.line()).append('\n');
        if (result.waiting()) {
            out.append("waiting: IN_PROGRESS Kubernetes cluster job(s) ").append(result.unknownJobIds())
                    .append(" of unknown cluster: recovering nothing now\n");
        } else if (result.recoveries().isEmpty()) {
            out.append("no stuck Kubernetes cluster\n");
        } else {
            out.append(apply ? "recovered (compare-and-set):\n" : "would recover (dry run; --apply to perform):\n");
            for (StuckClusterScan.Finding f : result.recoveries()) {
                out.append(String.format(Locale.ROOT, "  %d %s %s: %s -> %s: %s [%s]%s%n", f.id(), f.uuid(), f.name(),
                        f.state(), f.to(), f.reason().description(), f.reason().name(),
                        f.applied() == null ? "" : f.applied() ? ": done" : ": missed (the cluster moved on), left"));
            }
        }
        out.append(OverdueReport.text(overdue));
        out.append(DepartedReport.text(departed));
        return out.toString();
    }

    private static String json(ModeOption.Resolved mode, TableOption.Resolved table, StuckClusterScan.Result result,
            List<OverdueOperations.Overdue> overdue, List<DepartedReport.Row> departed) {
        StringBuilder out = new StringBuilder("{\"mode\": ").append(Json.quote(mode.label()))
                .append(", \"mode_chosen\": ").append(Json.quote(mode.how()))
                .append(", ").append(table.json())
                .append(", \"waiting\": ").append(result.waiting())
                .append(", \"unknown_jobs\": ").append(result.unknownJobIds()).append(", \"recoveries\": [");
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
        return out.append("], \"overdue\": ").append(OverdueReport.json(overdue))
                .append(", \"departed_server_jobs\": ").append(DepartedReport.json(departed)).append("}\n").toString();
    }
}
