// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.tool.departed.DepartedServerJobs;
import org.apache.cloudstack.kubernetes.state.jdbc.ScanListener;
import org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.tool.scan.StuckClusterScan;
import org.apache.cloudstack.kubernetes.state.tool.settings.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
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
                + " fails each by compare-and-set as CloudStack's table fails it (to Alert, or back to Running for an add"
                + " or removal of nodes; CloudStack's Alert reconciliation then returns a healthy cluster to Running),"
                + " printing each change as it commits; SIGINT or SIGTERM stops it after the change in flight and prints"
                + " what it did and what it left. Only CloudManaged, not removed clusters; never one with a live job. Also"
                + " lists live operations past CloudStack's time limit (never written), and the IN_PROGRESS jobs of"
                + " management servers that are gone (Down, removed, or silent past cluster.heartbeat.threshold), which"
                + " CloudStack fails when that server starts again: --fail-departed-jobs --apply fails their Kubernetes"
                + " cluster jobs as that start would, before the recovery pass; the dry run lists the recoveries that"
                + " follow."})
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
            + " run without, which also lists the recoveries that follow)")
    boolean failDepartedJobs;

    @Option(names = "--include-silent-up", description = "with --fail-departed-jobs: also fail the jobs of a server whose"
            + " mshost row still says Up although its heartbeat is older than cluster.heartbeat.threshold (it may be"
            + " stalled rather than gone)")
    boolean includeSilentUp;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        if (overdueAfter <= 0) {
            throw new ParameterException(spec.commandLine(), "--overdue-after must be positive");
        }
        if (includeSilentUp && !failDepartedJobs) {
            throw new ParameterException(spec.commandLine(), "--include-silent-up goes with --fail-departed-jobs");
        }
        OperatorDatabase db = database.database(spec, apply);
        PrintWriter out = spec.commandLine().getOut();
        Interruption signal = apply ? Interruption.whileWriting() : Interruption.none();
        ScanReport report = new ScanReport(apply, format == Format.text ? out : null);
        // The hook goes on every way out (a refused login, a refused --apply too): else the exit waits for it.
        try {
            try (Connection c = db.connect(spec.commandLine().getErr())) {
                scan(c, db, report, signal);
            } catch (SQLException | StateStoreException e) {
                throw new ToolFailure((apply ? "recovering the stuck clusters of " : "reading the clusters of ")
                        + db.describe() + ": " + DatabaseErrors.reason(e));
            }
            out.print(format == Format.json ? report.json() : report.text());
            out.flush();
        } finally {
            signal.reported();
        }
        return report.interrupted ? 130 : 0;
    }

    private void scan(Connection c, OperatorDatabase db, ScanReport report, Interruption signal) throws SQLException {
        report.mode = modeOption.resolve(c);
        report.table = tableOption.resolve(c, apply);
        long threshold = CloudStackConfiguration.heartbeatThresholdMillis(c);
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class,
                report.table.profile()).withHeartbeatThreshold(threshold);
        DepartedServerJobs departedJobs = new DepartedServerJobs(report.table.commands(), threshold, includeSilentUp);
        List<DepartedServerJobs.Job> gone = departedJobs.find(c);
        StuckClusterScan<State, Event> scan = new StuckClusterScan<>(machine, db.source(), report.mode.mode());
        report.started();
        if (!failDepartedJobs) {
            report.departed = DepartedReport.listed(gone, DepartedReport.Action.LISTED, departedJobs);
        } else if (!apply) {
            report.departed = DepartedReport.listed(gone, DepartedReport.Action.WOULD_FAIL, departedJobs);
        } else {
            List<DepartedServerJobs.Outcome> outcomes = departedJobs.fail(db.source(), gone, report::departedCommitted,
                    signal::requested);
            report.departed = DepartedReport.applied(outcomes);
            report.departedLeft = gone.subList(outcomes.size(), gone.size());
        }
        if (signal.requested()) {
            report.interrupted = true;
            report.recoveryPassSkipped = true;
        } else if (failDepartedJobs && !apply) {
            Set<Long> failing = gone.stream().filter(departedJobs::wouldFail).map(DepartedServerJobs.Job::jobId)
                    .collect(Collectors.toSet());
            report.result = scan.previewAfter(failing);
        } else {
            report.result = recover(scan, report, signal);
        }
        report.overdue = DepartedReport.withoutDeparted(new OverdueOperations(report.table.commands(), machine.orphanStates().stream()
                .map(Enum::name).toList(), overdueAfter).find(c), report.departed);
    }

    /** The recovery pass; applying, it reports each change as it commits and stops at a signal. */
    private StuckClusterScan.Result recover(StuckClusterScan<State, Event> scan, ScanReport report, Interruption signal)
            throws SQLException {
        if (!apply) {
            return scan.run(false);
        }
        List<Long> planned = new ArrayList<>();
        List<Long> reached = new ArrayList<>();
        scan.setListener(new ScanListener() {
            @Override
            public void recoveriesPlanned(List<Long> clusterIds) {
                planned.addAll(clusterIds);
            }

            @Override
            public void beforeRecovery(long clusterId) {
                if (signal.requested()) {
                    throw new Interruption.Stopped();
                }
                reached.add(clusterId);
            }

            @Override
            public void afterRecovery(long clusterId, boolean hit) {
                report.recoveryCommitted(scan, clusterId, hit);
            }
        });
        try {
            return scan.run(true);
        } catch (Interruption.Stopped stopped) {
            report.interrupted = true;
            report.recoveriesLeft = planned.subList(reached.size(), planned.size());
            return null;
        }
    }
}
