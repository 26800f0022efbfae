// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.tool.cli.Secrets;
import org.apache.cloudstack.kubernetes.state.tool.cli.VersionProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cks-state simulate}: a multi-server control plane with crashes, on a real database. */
@Command(name = "simulate", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Run random operations of every kind on many clusters from several simulated management"
                + " servers that crash and come back, through the real library and a real database, and check the"
                + " invariants. Exit status 1 when an invariant is broken."})
final class SimulateCommand implements Callable<Integer> {
    /** Report formats. */
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Option(names = "--servers", defaultValue = "3", description = "management servers (default: ${DEFAULT-VALUE})")
    int servers;

    @Option(names = "--clusters", defaultValue = "24", description = "Kubernetes clusters (default: ${DEFAULT-VALUE})")
    int clusters;

    @Option(names = "--operations", defaultValue = "400", description = "user operations (default: ${DEFAULT-VALUE})")
    int operations;

    @Option(names = "--crashes", defaultValue = "4", description = "server crashes (default: ${DEFAULT-VALUE})")
    int crashes;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the operation script (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--duration", defaultValue = "60",
            description = "stop dispatching after this many seconds (default: ${DEFAULT-VALUE})")
    int duration;

    @Option(names = "--workers", defaultValue = "6", description = "workers per server (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--operation-ms", defaultValue = "40",
            description = "mean work time of an operation, scaled (default: ${DEFAULT-VALUE})")
    int operationMillis;

    @Option(names = "--arrival-ms", defaultValue = "6",
            description = "mean time between two requests (default: ${DEFAULT-VALUE})")
    int arrivalMillis;

    @Option(names = "--scanner-ms", defaultValue = "40",
            description = "time between scanner passes on each server (default: ${DEFAULT-VALUE})")
    int scannerMillis;

    @Option(names = "--failure-rate", defaultValue = "0.1", description = "share of failing operations (default: ${DEFAULT-VALUE})")
    double failureRate;

    @Option(names = "--legacy-job-rate", defaultValue = "0.1",
            description = "share of jobs written as an older server does, without instance_id (default: ${DEFAULT-VALUE})")
    double legacyJobRate;

    @Option(names = "--widen-windows",
            description = "add a delay where the upstream design admits windows, so that they show in a short run")
    boolean widenWindows;

    @Option(names = "--mode", defaultValue = "compat", paramLabel = "compat|fenced",
            description = "state writes of the servers: compat (upstream's compare-and-set on the state) or fenced"
                    + " (version token + owner; the schema is migrated up at prepare) (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--quiet", description = "no progress lines on standard error")
    boolean quiet;

    @Option(names = "--jdbc-url", description = "MariaDB/MySQL database (default: embedded H2 in a temp folder);"
            + " it must be empty or a previous simulate run's. With --processes it may be given several times (the"
            + " nodes of a Galera cluster): server i writes on URL i mod n")
    List<String> jdbcUrls = new ArrayList<>();

    @Option(names = "--processes", description = "run every management server as its own JVM (needs --jdbc-url):"
            + " a crash is a SIGKILL, a restart a new process with a new runid")
    boolean processes;

    @Option(names = "--pauses", defaultValue = "0", description = "with --processes: SIGSTOP a server for longer than"
            + " the heartbeat threshold, then SIGCONT it, this many times (default: ${DEFAULT-VALUE})")
    int pauses;

    @Option(names = "--db-node-kills", defaultValue = "0", description = "with --processes: kill a database node"
            + " mid-run and start it again, this many times, with --db-node-hook (default: ${DEFAULT-VALUE})")
    int dbNodeKills;

    @Option(names = "--db-node-hook", paramLabel = "SCRIPT", description = "with --db-node-kills: a script taking"
            + " 'kill-node N' and 'start-node N', N the position of the node's --jdbc-url (scripts/galera.sh)")
    String dbNodeHook;

    @Option(names = "--heartbeat-threshold-ms", defaultValue = "4000", description = "with --processes: the"
            + " cluster.heartbeat.threshold the run sets, in ms (default: ${DEFAULT-VALUE})")
    long heartbeatThresholdMillis;

    @Option(names = "--user", description = "database user (with --jdbc-url)")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR",
            description = "environment variable holding the database password (with --jdbc-url)")
    String passwordEnv;

    @Option(names = "--stall-seconds", defaultValue = "" + Simulation.DEFAULT_STALL_SECONDS,
            description = "fail (exit " + STALLED + ", with a thread dump on standard error) when nothing moves for"
                    + " this many seconds (default: ${DEFAULT-VALUE})")
    int stallSeconds;

    @Option(names = "--verbose", description = "also show the JDBC drivers' own log lines on standard error")
    boolean verbose;

    /** The exit status of a run its watchdog stopped. */
    static final int STALLED = 3;
    /** The exit status of a run that could not dispatch every operation within --duration. */
    static final int NOT_DISPATCHED = 4;

    @Override
    public Integer call() throws Exception {
        String password = passwordEnv == null ? null : System.getenv(passwordEnv);
        if (passwordEnv != null && password == null) {
            throw new ParameterException(spec.commandLine(), "environment variable " + passwordEnv + " is not set");
        }
        Secrets.register(password);
        jdbcUrls.forEach(Secrets::registerUrl);
        String jdbcUrl = jdbcUrls.isEmpty() ? null : jdbcUrls.get(0);
        SimulationConfig config = new SimulationConfig(servers, clusters, operations, crashes, seed, duration, workers,
                operationMillis, arrivalMillis, scannerMillis, failureRate, legacyJobRate, widenWindows, jdbcUrl,
                user, password, checkedOptions());
        PrintWriter err = spec.commandLine().getErr();
        SimulationReport report;
        try {
            java.util.function.Consumer<String> progress = line -> {
                if (!quiet) {
                    err.println(line);
                    err.flush();
                }
            };
            Simulation simulation = processes ? Simulation.processes(config, processOptions(), progress)
                    : Simulation.threads(config, progress);
            report = simulation.stallAfterSeconds(stallSeconds).run();
        } catch (Watchdog.Stalled stalled) {
            err.println("cks-state simulate: " + stalled.getMessage());
            err.print(stalled.threadDump());
            err.flush();
            return STALLED;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == Format.json ? report.toJson() : report.toText());
        out.flush();
        if (!report.invariantsHold()) {
            return 1;
        }
        long late = report.number("operations", "not_dispatched_in_time");
        if (late > 0) {
            err.println("cks-state simulate: " + late + " of " + operations + " operations were not dispatched within"
                    + " --duration " + duration + " s: raise --duration, or lower --operations");
            err.flush();
            return NOT_DISPATCHED;
        }
        return 0;
    }

    /** The --processes options, each checked under its own name. */
    private ProcessOptions processOptions() {
        try {
            return new ProcessOptions(jdbcUrls, pauses, heartbeatThresholdMillis, dbNodeKills, dbNodeHook);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** Every option checked under its own name; the mode of --mode. */
    private StateMode checkedOptions() {
        for (Object[] option : new Object[][] {{"--servers", servers}, {"--clusters", clusters}, {"--workers", workers},
            {"--duration", duration}, {"--operation-ms", operationMillis}, {"--scanner-ms", scannerMillis},
            {"--stall-seconds", stallSeconds}}) {
            if ((int) option[1] <= 0) {
                throw new ParameterException(spec.commandLine(), option[0] + " must be positive");
            }
        }
        for (Object[] option : new Object[][] {{"--operations", operations}, {"--crashes", crashes},
            {"--arrival-ms", arrivalMillis}}) {
            if ((int) option[1] < 0) {
                throw new ParameterException(spec.commandLine(), option[0] + " must not be negative");
            }
        }
        for (Object[] option : new Object[][] {{"--failure-rate", failureRate}, {"--legacy-job-rate", legacyJobRate}}) {
            double v = (double) option[1];
            if (!(v >= 0 && v <= 1)) {
                throw new ParameterException(spec.commandLine(), option[0] + " must be between 0 and 1");
            }
        }
        if (jdbcUrls.size() > 1 && !processes) {
            throw new ParameterException(spec.commandLine(), "several --jdbc-url go with --processes");
        }
        if (!processes && (pauses != 0 || dbNodeKills != 0 || dbNodeHook != null)) {
            throw new ParameterException(spec.commandLine(), "--pauses, --db-node-kills and --db-node-hook go with"
                    + " --processes");
        }
        if (jdbcUrls.isEmpty() && (user != null || passwordEnv != null)) {
            throw new ParameterException(spec.commandLine(), "--user and --password-env go with --jdbc-url");
        }
        String m = mode.strip().toLowerCase(java.util.Locale.ROOT);
        if (!m.equals("compat") && !m.equals("fenced")) {
            throw new ParameterException(spec.commandLine(), "--mode must be compat or fenced, not '" + mode + "'");
        }
        return StateMode.fromConfig(m);
    }
}
