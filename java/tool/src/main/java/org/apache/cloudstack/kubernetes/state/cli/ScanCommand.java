package org.apache.cloudstack.kubernetes.state.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.Event;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.State;
import org.apache.cloudstack.kubernetes.state.scan.StuckClusterScan;
import org.apache.cloudstack.kubernetes.state.text.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cks-state scan}: stuck clusters of a CloudStack database, and the way out. */
@Command(name = "scan", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Find the Kubernetes clusters the status scanner would recover: in an operation's state"
                + " (Starting, Scaling, Upgrading, ...) with no IN_PROGRESS job. Dry run unless --apply, which fails"
                + " each by compare-and-set (to Alert; CloudStack's Alert reconciliation then returns a healthy"
                + " cluster to Running). Only CloudManaged, not removed clusters; never one with a live job."})
final class ScanCommand implements Callable<Integer> {
    /** Output formats. */
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOptions database;

    @Option(names = "--apply", description = "perform the compare-and-sets (default: dry run, read only)")
    boolean apply;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() throws Exception {
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);
        StuckClusterScan<State, Event> scan = new StuckClusterScan<>(machine, database.source(spec),
                database.mode());
        StuckClusterScan.Result result = scan.run(apply);
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == Format.json ? json(result) : text(result));
        out.flush();
        return 0;
    }

    private String text(StuckClusterScan.Result result) {
        StringBuilder out = new StringBuilder();
        if (result.waiting()) {
            out.append("waiting: IN_PROGRESS Kubernetes cluster job(s) ").append(result.unknownJobIds())
                    .append(" of unknown cluster: recovering nothing now\n");
            return out.toString();
        }
        if (result.recoveries().isEmpty()) {
            return "no stuck Kubernetes cluster\n";
        }
        out.append(apply ? "recovered (compare-and-set):\n" : "would recover (dry run; --apply to perform):\n");
        for (StuckClusterScan.Finding f : result.recoveries()) {
            out.append(String.format(Locale.ROOT, "  %d %s %s: %s -> %s, no job in progress%s%n", f.id(), f.uuid(),
                    f.name(), f.state(), f.to(),
                    f.applied() == null ? "" : f.applied() ? ": done" : ": missed (the cluster moved on), left"));
        }
        return out.toString();
    }

    private static String json(StuckClusterScan.Result result) {
        StringBuilder out = new StringBuilder("{\"waiting\": ").append(result.waiting())
                .append(", \"unknown_jobs\": ").append(result.unknownJobIds()).append(", \"recoveries\": [");
        String sep = "";
        for (StuckClusterScan.Finding f : result.recoveries()) {
            out.append(sep).append("{\"id\": ").append(f.id()).append(", \"uuid\": ").append(Json.quote(f.uuid()))
                    .append(", \"name\": ").append(Json.quote(f.name())).append(", \"state\": ").append(Json.quote(f.state()))
                    .append(", \"to\": ").append(Json.quote(f.to()));
            if (f.applied() != null) {
                out.append(", \"applied\": ").append(f.applied());
            }
            out.append('}');
            sep = ", ";
        }
        return out.append("]}\n").toString();
    }
}
