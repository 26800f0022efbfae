package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStatusScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.ReconcileResult;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.Event;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.State;

/**
 * {@code simulate --processes}: every management server is its own JVM ({@link ServerProcess}), the
 * tool started again with the same class path. The parent prepares the database, sends each server
 * its scripted operations, and injects the faults as signals: a crash is a SIGKILL and a restart a
 * new process with a new runid; a pause is a SIGSTOP past the heartbeat threshold, then a SIGCONT,
 * after which the server finds itself marked Down by its peers and fences itself. The checker
 * ({@link ProcessChecker}) judges from the database and from the logs the processes wrote.
 */
public final class ProcessSimulation {
    private static final int FINAL_PASSES = 8;
    /** A pause lasts the threshold plus this: the peers judge the server and a scanner pass acts on it. */
    private static final long PAUSE_BEYOND_THRESHOLD_MILLIS = 3000;
    private static final long STOP_WAIT_MILLIS = 90_000;
    private static final long READY_WAIT_MILLIS = 60_000;
    /** Set (to anything): the run's logs stay in their temp folder, for a look at a failed run. */
    static final String KEEP_LOGS = "cks.state.simulate.keep-logs";

    /** A fault of the run: a crash (SIGKILL, down for a while) or a pause (SIGSTOP, then SIGCONT). */
    private record Fault(int server, long atMillis, long lastsMillis, boolean pause) {
    }

    private final SimulationConfig config;
    private final ProcessOptions options;
    private final Consumer<String> progress;
    private long stallMillis = TimeUnit.SECONDS.toMillis(ControlPlaneSimulation.DEFAULT_STALL_SECONDS);

    private final AtomicLong nextRunid = new AtomicLong(2);
    private final AtomicInteger processesStarted = new AtomicInteger();
    private final AtomicInteger kills = new AtomicInteger();
    private final AtomicInteger pausesDone = new AtomicInteger();
    private final AtomicInteger unexpectedExits = new AtomicInteger();
    private final AtomicInteger dispatched = new AtomicInteger();
    private ChildServer[] children;
    /** Per server: the fault thread has it down on purpose (the supervisor must not restart it). */
    private boolean[] heldDown;
    private Path dir;
    private ActionLog faults;
    private final List<Path> logs = new ArrayList<>();

    public ProcessSimulation(SimulationConfig config, ProcessOptions options, Consumer<String> progress) {
        this.config = config;
        this.options = options;
        this.progress = progress;
    }

    public ProcessSimulation stallAfterSeconds(int seconds) {
        if (seconds < 1) {
            throw new IllegalArgumentException("stall seconds must be at least 1, not " + seconds);
        }
        this.stallMillis = TimeUnit.SECONDS.toMillis(seconds);
        return this;
    }

    private static long msid(int index) {
        return ControlPlaneSimulation.MSID_BASE + index + 1;
    }

    public SimulationReport run() throws SQLException, InterruptedException, IOException {
        OperationScript script = OperationScript.generate(config);
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class)
                .withMode(config.mode()).withHeartbeatThreshold(options.heartbeatThresholdMillis());
        long runStarted = System.nanoTime();
        dir = Files.createTempDirectory("cks-state-processes-");
        children = new ChildServer[config.servers()];
        heldDown = new boolean[config.servers()];
        try (SimulationDatabase db = SimulationDatabase.attach(options.urlOf(0), config.user(), config.password());
                ActionLog faultLog = new ActionLog(dir.resolve("parent.log"))) {
            faults = faultLog;
            db.prepare();
            if (config.mode() == StateMode.FENCED) {
                try (Connection c = db.open()) {
                    CloudStackSchema.migrateUp(c);
                }
            }
            List<SimCluster> clusters = db.seedClusters(script.initialStates());
            db.setting(CloudStackConfiguration.HEARTBEAT_THRESHOLD, Long.toString(options.heartbeatThresholdMillis()));
            for (int i = 0; i < config.servers(); i++) {
                db.registerServer(msid(i), 1, "ms-" + i);
                children[i] = start(i, 1);
            }
            for (ChildServer c : children) {
                if (!c.awaitReady(READY_WAIT_MILLIS)) {
                    throw new IllegalStateException("management server process " + c.index + " did not come up within "
                            + READY_WAIT_MILLIS / 1000 + " s" + errorTail(c));
                }
            }
            long started = System.nanoTime();
            Watchdog watchdog = Watchdog.start(() -> dispatched.get() + kills.get() + pausesDone.get() + logBytes(),
                    stallMillis);
            try {
                SupervisorLoop supervisor = new SupervisorLoop();
                Thread supervising = daemon("supervisor", supervisor);
                Thread faulting = daemon("faults", () -> runFaults(faultPlan(script), started));
                Thread reporter = daemon("progress", () -> report(script, started));
                int notDispatched = dispatch(script, started, watchdog);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(config.maxSeconds() + 120L);
                while (faulting.isAlive()) {
                    watchdog.throwIfStalled();
                    faulting.join(250);
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the fault schedule did not finish in time");
                    }
                }
                supervisor.stop = true;
                supervising.join(5_000);
                reporter.interrupt();
                int killedAtEnd = stopAll();
                watchdog.throwIfStalled();
                ProcessChecker checker = new ProcessChecker(script.operations(), ControlPlaneSimulation.MSID_BASE);
                finalPasses(machine, db, checker.scan);
                checker.replay(logs, dir.resolve("parent.log"));
                Map<Long, String> finalStates = db.states();
                int stuck = RunReport.stuck(machine, finalStates);
                int illegal = HistoryCheck.illegalTransitions(machine, clusters, db.history(), finalStates);
                int jobsFailed = jobsFailedOnRestart();
                SimulationReport r = RunReport.build(config, script, db.describe() + (options.jdbcUrls().size() > 1
                        ? " and " + (options.jdbcUrls().size() - 1) + " more node(s)" : ""),
                        new RunReport.Counts(checker.outcomes, checker.latency, checker.scan, checker.monitor,
                                kills.get(), jobsFailed, notDispatched, stuck, illegal), finalStates, runStarted);
                Map<String, Object> setup = r.section("setup");
                setup.put("processes", true);
                setup.put("database_urls", options.jdbcUrls().size());
                setup.put("heartbeat_threshold_ms", options.heartbeatThresholdMillis());
                Map<String, Object> crash = r.section("crashes");
                crash.put("pauses", pausesDone.get());
                crash.put("processes_started", processesStarted.get());
                crash.put("self_fenced", checker.selfFenced);
                crash.put("peers_marked_down", checker.peersMarkedDown);
                crash.put("killed_at_end", killedAtEnd);
                crash.put("unexpected_exits", unexpectedExits.get());
                return r;
            } finally {
                watchdog.close();
                killAll();
            }
        } finally {
            if (System.getProperty(KEEP_LOGS) == null) {
                deleteTree(dir);
            } else {
                progress.accept("[simulate] logs kept in " + dir);
            }
        }
    }

    private ChildServer start(int index, long runid) {
        Path log = dir.resolve("server-" + index + "-run-" + runid + ".log");
        synchronized (logs) {
            logs.add(log);
        }
        try {
            ChildServer child = ChildServer.start(new ServerProcess.Settings(index, msid(index), runid,
                    options.urlOf(index), config.user(), config.password(), config.mode(), config.workersPerServer(),
                    config.scannerMillis(), config.widenWindows(), log), dir);
            processesStarted.incrementAndGet();
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("starting management server " + index, e);
        }
    }

    /** The crashes of the script and the pauses, in time order. */
    private List<Fault> faultPlan(OperationScript script) {
        List<Fault> plan = new ArrayList<>();
        for (ScriptedCrash c : script.crashes()) {
            plan.add(new Fault(c.server(), c.atMillis(), Math.max(500, c.downMillis()), false));
        }
        long span = script.operations().isEmpty() ? 1 : Math.max(1, script.operations()
                .get(script.operations().size() - 1).atMillis());
        SplittableRandom random = new SplittableRandom(config.seed() ^ 0x9A05E5L);
        for (int i = 0; i < options.pauses(); i++) {
            plan.add(new Fault(random.nextInt(config.servers()), random.nextLong(span),
                    options.heartbeatThresholdMillis() + PAUSE_BEYOND_THRESHOLD_MILLIS, true));
        }
        plan.sort(Comparator.comparingLong(Fault::atMillis));
        return plan;
    }

    private void runFaults(List<Fault> plan, long started) {
        try {
            for (Fault f : plan) {
                sleepUntil(started + TimeUnit.MILLISECONDS.toNanos(f.atMillis()));
                ChildServer target = awaitUp(f.server());
                if (target == null) {
                    continue; // it did not come back in time: no fault to inject
                }
                if (f.pause()) {
                    faults.write("PAUSE", f.server(), target.runid);
                    target.pause();
                    Thread.sleep(f.lastsMillis());
                    target.resume();
                    faults.write("RESUME", f.server(), target.runid);
                    pausesDone.incrementAndGet();
                    synchronized (this) {
                        heldDown[f.server()] = false; // it fences itself; the supervisor restarts it
                    }
                } else {
                    faults.write("KILL", f.server(), target.runid);
                    target.kill();
                    kills.incrementAndGet();
                    Thread.sleep(f.lastsMillis());
                    synchronized (this) {
                        children[f.server()] = start(f.server(), nextRunid.getAndIncrement());
                        heldDown[f.server()] = false;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's process once it is up (then held down for the fault), or null after a bounded wait. */
    private ChildServer awaitUp(int index) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_WAIT_MILLIS);
        while (System.nanoTime() < end) {
            synchronized (this) {
                ChildServer c = children[index];
                if (c.alive()) {
                    heldDown[index] = true;
                    return c;
                }
            }
            Thread.sleep(20);
        }
        return null;
    }

    /** The last lines a process wrote on standard error, for a failure's message. */
    private String errorTail(ChildServer c) {
        Path err = dir.resolve("server-" + c.index + "-run-" + c.runid + ".err");
        try {
            List<String> lines = Files.exists(err) ? Files.readAllLines(err) : List.of();
            return lines.isEmpty() ? "" : ": " + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5),
                    lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    /** Restarts a server whose process ended by itself (it fenced itself, or failed). */
    private final class SupervisorLoop implements Runnable {
        volatile boolean stop;

        @Override
        public void run() {
            while (!stop) {
                for (int i = 0; i < children.length; i++) {
                    synchronized (ProcessSimulation.this) {
                        ChildServer c = children[i];
                        if (heldDown[i] || c.running()) {
                            continue;
                        }
                        int code;
                        try {
                            code = c.exitCode(0);
                        } catch (InterruptedException e) {
                            return;
                        }
                        faults.write("EXIT", i, c.runid, code);
                        if (code != ServerProcess.SELF_FENCED) {
                            unexpectedExits.incrementAndGet();
                        }
                        children[i] = start(i, nextRunid.getAndIncrement());
                    }
                }
                if (!sleep(100)) {
                    return;
                }
            }
        }
    }

    /** Sends each scripted operation to its server when it is due, or to the next one up. */
    private int dispatch(OperationScript script, long started, Watchdog watchdog) {
        long deadline = started + TimeUnit.SECONDS.toNanos(config.maxSeconds());
        int notDispatched = 0;
        for (ScriptedOperation op : script.operations()) {
            watchdog.throwIfStalled();
            if (System.nanoTime() > deadline) {
                notDispatched++;
                continue;
            }
            sleepUntil(started + TimeUnit.MILLISECONDS.toNanos(op.atMillis()));
            boolean sent = false;
            for (int attempt = 0; !sent && System.nanoTime() < deadline; attempt++) {
                ChildServer target;
                synchronized (this) {
                    target = children[(op.server() + attempt) % children.length];
                }
                sent = target.alive() && target.send(ProcessCommands.line(op));
                if (!sent && attempt % children.length == children.length - 1) {
                    sleep(20); // every server is down for a moment
                }
            }
            if (sent) {
                dispatched.incrementAndGet();
            } else {
                notDispatched++;
            }
        }
        return notDispatched;
    }

    /** Ends every server cleanly (resumed first); the number that had to be killed. */
    private int stopAll() throws InterruptedException {
        int killed = 0;
        for (int i = 0; i < children.length; i++) {
            ChildServer c = children[i];
            if (c.running() && !c.alive()) {
                try {
                    c.resume();
                } catch (IOException e) {
                    // it is being killed below if it does not stop
                }
            }
            if (c.running() && c.stop(STOP_WAIT_MILLIS) < 0) {
                killed++;
            }
        }
        return killed;
    }

    private void killAll() {
        if (children == null) {
            return;
        }
        for (ChildServer c : children) {
            if (c != null && c.running()) {
                try {
                    c.kill();
                } catch (InterruptedException | IllegalStateException e) {
                    // reported by the caller's failure
                }
            }
        }
    }

    /** After the storm every server is stopped: a few passes recover what the last faults left. */
    private static void finalPasses(ClusterStateMachine<State, Event> machine, SimulationDatabase db,
            ScannerStats stats) {
        KubernetesClusterStatusScanner<State, Event> scanner = new KubernetesClusterStatusScanner<>(
                new KubernetesClusterStateDao<>(machine, db.source()).withHistory(ControlPlaneSimulation.MSID_BASE),
                () -> Owner.of(ControlPlaneSimulation.MSID_BASE, 1));
        for (int i = 0; i < FINAL_PASSES; i++) {
            RecoveryResult<State> recovery = scanner.recoverOrphanedOperationStates();
            ReconcileResult<State> reconcile = scanner.reconcileAlertClusters(id -> true);
            stats.record(recovery, reconcile);
            if (recovery.recoveredIds().isEmpty() && reconcile.moved().isEmpty()) {
                break;
            }
        }
    }

    /** Jobs the restarts failed: the UP lines of the server logs. */
    private int jobsFailedOnRestart() throws IOException {
        int failed = 0;
        for (Path log : logs) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) {
                    String[] w = line.split(" ");
                    if (w.length >= 3 && w[1].equals("UP")) {
                        failed += Integer.parseInt(w[2]);
                    }
                }
            }
        }
        return failed;
    }

    private long logBytes() {
        long n = 0;
        synchronized (logs) {
            for (Path p : logs) {
                n += p.toFile().length();
            }
        }
        return n;
    }

    private void report(OperationScript script, long started) {
        while (sleep(1000)) {
            progress.accept(String.format("[simulate] %.1fs: %d/%d operations dispatched, %d kills, %d pauses,"
                    + " %d processes started", (System.nanoTime() - started) / 1e9, dispatched.get(),
                    script.operations().size(), kills.get(), pausesDone.get(), processesStarted.get()));
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, "cks-simulate-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void sleepUntil(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            sleep(TimeUnit.NANOSECONDS.toMillis(left) + 1);
        }
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void deleteTree(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp folder is reported by nobody; the next run does not need it
        }
    }
}
