// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.tool.explain.ClusterExplainer;
import org.apache.cloudstack.kubernetes.state.tool.explain.ClusterExplanation;
import org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.sql.JobText;
import org.apache.cloudstack.kubernetes.state.tool.settings.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.tool.text.Json;
import org.apache.cloudstack.kubernetes.state.tool.text.Terminal;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cks-state explain CLUSTER}: why a cluster is where it is, and what the scanner will do. Read-only. */
@Command(name = "explain", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Explain one Kubernetes cluster, read-only: its state (fenced mode: version and owner), the"
                + " recent async jobs that name it (by instance_id or by its uuid in job_cmd_info), the management"
                + " servers involved, the IN_PROGRESS jobs of unknown cluster that make the scanner wait, the"
                + " verdict the status scanner reaches now (recover, wait or leave) with its reason, from the"
                + " scanner's own code, whether its live operation is past CloudStack's time limit, and the IN_PROGRESS"
                + " jobs of departed management servers that hold it (see scan --fail-departed-jobs). Exit 1 when"
                + " CLUSTER names no cluster or several."})
final class ExplainCommand implements Callable<Integer> {
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "CLUSTER", description = "the cluster's id, uuid or name")
    String cluster;

    @Mixin
    DatabaseOptions database;

    @Mixin
    ModeOption modeOption;

    @Mixin
    TableOption tableOption;

    @Option(names = "--overdue-after", paramLabel = "SECONDS", defaultValue = "" + OverdueOperations.DEFAULT_SECONDS,
            description = "call a live operation CloudStack has no timeout for overdue after this long (default:"
                    + " ${DEFAULT-VALUE})")
    long overdueAfter;

    @Option(names = "--jobs", defaultValue = "10", description = "how many of the newest jobs to show (default: ${DEFAULT-VALUE})")
    int maxJobs;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        if (overdueAfter <= 0) {
            throw new ParameterException(spec.commandLine(), "--overdue-after must be positive");
        }
        if (maxJobs <= 0) {
            throw new ParameterException(spec.commandLine(), "--jobs must be positive");
        }
        OperatorDatabase db = database.database(spec, false);
        ModeOption.Resolved mode;
        TableOption.Resolved table;
        ClusterExplanation e;
        try (Connection c = db.connect(spec.commandLine().getErr())) {
            mode = modeOption.resolve(c);
            table = tableOption.resolve(c, false);
            ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class, table.profile())
                    .withHeartbeatThreshold(CloudStackConfiguration.heartbeatThresholdMillis(c));
            OverdueOperations overdue = new OverdueOperations(table.commands(),
                    machine.orphanStates().stream().map(Enum::name).toList(), overdueAfter);
            e = new ClusterExplainer<>(machine, db.source(), mode.mode(), maxJobs, overdue).explain(cluster.strip());
        } catch (ClusterExplainer.NotFound notFound) {
            throw new ToolFailure(notFound.getMessage());
        } catch (SQLException | StateStoreException failure) {
            throw new ToolFailure("reading cluster '" + cluster.strip() + "' of " + db.describe() + ": "
                    + DatabaseErrors.reason(failure));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == Format.json ? json(mode, table, e) : text(mode, table, e));
        out.flush();
        return 0;
    }

    private static String text(ModeOption.Resolved mode, TableOption.Resolved table, ClusterExplanation e) {
        StringBuilder out = new StringBuilder("mode: ").append(mode.label()).append(" (").append(mode.how()).append(")\n")
                .append(table.line()).append('\n').append(table.commandsLine()).append('\n');
        ClusterExplanation.Cluster c = e.cluster();
        for (ClusterExplanation.Cluster other : e.namesakes()) {
            out.append(String.format(Locale.ROOT, "note: the id or uuid given is also the name of cluster %d %s%s: explain"
                    + " that one by its uuid%n", other.id(), Terminal.field(other.uuid()),
                    other.removed() == null ? "" : " (removed " + other.removed() + ")"));
        }
        out.append(String.format(Locale.ROOT, "cluster %d %s %s%n  state %s%s%s%s%n", c.id(), Terminal.field(c.uuid()),
                Terminal.field(c.name()), Terminal.field(c.state()),
                c.version() == null ? "" : ", version " + c.version(),
                c.ownerMsid() == null ? (c.version() == null ? "" : ", no owner")
                        : ", owner msid " + c.ownerMsid() + " runid " + c.ownerRunid() + " job " + c.ownerJobId(),
                c.removed() == null ? "" : ", removed " + c.removed()));
        out.append("jobs naming it (newest first):\n");
        if (e.jobs().isEmpty()) {
            out.append("  none\n");
        }
        for (ClusterExplanation.Job j : e.jobs()) {
            out.append(String.format(Locale.ROOT, "  %d %s %s result %s%s, init msid %s, executing msid %s, created %s,"
                    + " updated %s%s (by %s)%n", j.id(), Terminal.field(shortName(j.command())), j.statusName(),
                    j.resultCode(), j.resultEncrypted() ? " " + JobText.ENCRYPTED
                            : j.result() == null ? "" : " \"" + Terminal.field(oneLine(j.result())) + "\"", j.initMsid(),
                    j.executingMsid(), j.created(), j.lastUpdated(), j.removed() == null ? "" : ", removed " + j.removed(),
                    j.namedBy()));
        }
        out.append("management servers:\n");
        if (e.servers().isEmpty()) {
            out.append("  none involved\n");
        }
        for (ClusterExplanation.Server s : e.servers()) {
            out.append(String.format(Locale.ROOT, "  msid %d %s %s runid %d, last update %s%s%n", s.msid(),
                    Terminal.field(s.name()), Terminal.field(s.state()), s.runid(), s.lastUpdate(), s.removed() == null ? "" : ", removed " + s.removed()));
        }
        out.append("IN_PROGRESS jobs of unknown cluster: ")
                .append(e.unknownClusterJobIds().isEmpty() ? "none" : e.unknownClusterJobIds() + " (the scanner waits on them)")
                .append('\n');
        ClusterExplanation.Verdict v = e.verdict();
        out.append("verdict: ").append(v.kind())
                .append(v.kind() == ClusterExplanation.Verdict.Kind.RECOVER ? " to " + v.to() : "")
                .append(": ").append(v.reason()).append(v.reasonCode() == null ? "" : " [" + v.reasonCode() + "]")
                .append('\n');
        out.append(OverdueReport.text(e.overdue()));
        out.append(DepartedReport.text(DepartedReport.listed(e.departedServerJobs(), DepartedReport.Action.LISTED, null)));
        return out.toString();
    }

    private static String json(ModeOption.Resolved mode, TableOption.Resolved table, ClusterExplanation e) {
        ClusterExplanation.Cluster c = e.cluster();
        StringBuilder out = new StringBuilder("{\"mode\": ").append(Json.quote(mode.label()))
                .append(", \"mode_chosen\": ").append(Json.quote(mode.how()))
                .append(", ").append(table.json()).append(", ").append(table.commandsJson())
                .append(", \"cluster\": {\"id\": ").append(c.id())
                .append(", \"uuid\": ").append(Json.quote(c.uuid())).append(", \"name\": ").append(Json.quote(c.name()))
                .append(", \"state\": ").append(Json.quote(c.state())).append(", \"removed\": ").append(Json.quote(c.removed()))
                .append(", \"version\": ").append(c.version()).append(", \"owner\": ");
        out.append(c.ownerMsid() == null ? "null" : "{\"msid\": " + c.ownerMsid() + ", \"runid\": " + c.ownerRunid()
                + ", \"job\": " + c.ownerJobId() + "}");
        out.append("}, \"jobs\": [");
        String sep = "";
        for (ClusterExplanation.Job j : e.jobs()) {
            out.append(sep).append("{\"id\": ").append(j.id()).append(", \"command\": ").append(Json.quote(j.command()))
                    .append(", \"status\": ").append(Json.quote(j.statusName())).append(", \"result_code\": ")
                    .append(j.resultCode()).append(", \"result\": ").append(Json.quote(j.result()))
                    .append(", \"result_encrypted\": ").append(j.resultEncrypted())
                    .append(", \"init_msid\": ").append(j.initMsid()).append(", \"executing_msid\": ").append(j.executingMsid())
                    .append(", \"created\": ").append(Json.quote(j.created())).append(", \"last_updated\": ")
                    .append(Json.quote(j.lastUpdated())).append(", \"removed\": ").append(Json.quote(j.removed()))
                    .append(", \"named_by\": ").append(Json.quote(j.namedBy())).append('}');
            sep = ", ";
        }
        out.append("], \"servers\": [");
        sep = "";
        for (ClusterExplanation.Server s : e.servers()) {
            out.append(sep).append("{\"msid\": ").append(s.msid()).append(", \"name\": ").append(Json.quote(s.name()))
                    .append(", \"state\": ").append(Json.quote(s.state())).append(", \"runid\": ").append(s.runid())
                    .append(", \"last_update\": ").append(Json.quote(s.lastUpdate())).append(", \"removed\": ")
                    .append(Json.quote(s.removed())).append('}');
            sep = ", ";
        }
        ClusterExplanation.Verdict v = e.verdict();
        out.append("], \"unknown_cluster_jobs\": ").append(e.unknownClusterJobIds())
                .append(", \"verdict\": {\"kind\": ").append(Json.quote(v.kind().name().toLowerCase(Locale.ROOT)))
                .append(", \"to\": ").append(Json.quote(v.to())).append(", \"jobs\": ").append(v.jobIds())
                .append(", \"reason\": ").append(Json.quote(v.reason()))
                .append(", \"reason_code\": ").append(Json.quote(v.reasonCode()))
                .append("}, \"overdue\": ").append(OverdueReport.json(e.overdue()))
                .append(", \"departed_server_jobs\": ")
                .append(DepartedReport.json(DepartedReport.listed(e.departedServerJobs(), DepartedReport.Action.LISTED, null)))
                .append(", \"namesakes\": ").append(e.namesakes().stream().map(ClusterExplanation.Cluster::id).toList())
                .append("}\n");
        return out.toString();
    }

    private static String shortName(String command) {
        return command == null ? null : command.substring(command.lastIndexOf('.') + 1);
    }

    private static String oneLine(String s) {
        String flat = s.replaceAll("\\s+", " ").strip();
        return flat.length() > 160 ? flat.substring(0, 157) + "..." : flat;
    }
}
