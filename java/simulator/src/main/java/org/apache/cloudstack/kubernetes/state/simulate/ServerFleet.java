// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The management server processes of a {@link ProcessServers} driver and their faults: it starts each
 * run, injects the scripted SIGKILLs and the SIGSTOP/SIGCONT pauses, restarts a server that fenced
 * itself, and stops them all at the end. Every wait is bounded.
 */
final class ServerFleet {
    /** A pause lasts the threshold plus this: the peers judge the server and a scanner pass acts on it. */
    private static final long PAUSE_BEYOND_THRESHOLD_MILLIS = 3000;
    private static final long STOP_WAIT_MILLIS = 90_000;
    static final long READY_WAIT_MILLIS = 60_000;

    /** A fault of the run: a crash (SIGKILL, down for a while) or a pause (SIGSTOP, then SIGCONT). */
    private record Fault(int server, long atMillis, long lastsMillis, boolean pause) {
    }

    private final SimulationConfig config;
    private final ProcessOptions options;
    private final DatabaseTopology topology;
    private final Path dir;
    private final ActionLog faults;
    final List<Path> logs = new ArrayList<>();
    final AtomicLong nextRunid = new AtomicLong(2);
    final AtomicInteger processesStarted = new AtomicInteger();
    final AtomicInteger kills = new AtomicInteger();
    final AtomicInteger pausesDone = new AtomicInteger();
    final AtomicInteger unexpectedExits = new AtomicInteger();
    private final ChildServer[] children;
    /** Per server: the fault thread has it down on purpose (the supervisor must not restart it). */
    private final boolean[] heldDown;
    /** Set once the run ends: no server is started any more. */
    private boolean closed;
    /** The first failure of the fault or supervisor thread, for the run to throw. */
    final java.util.concurrent.atomic.AtomicReference<RuntimeException> failure =
            new java.util.concurrent.atomic.AtomicReference<>();

    ServerFleet(SimulationConfig config, ProcessOptions options, DatabaseTopology topology, Path dir, ActionLog faults) {
        this.config = config;
        this.options = options;
        this.topology = topology;
        this.dir = dir;
        this.faults = faults;
        this.children = new ChildServer[config.servers()];
        this.heldDown = new boolean[config.servers()];
    }

    /** Starts every server's first run and waits until each is up. */
    void startAll() throws InterruptedException {
        for (int i = 0; i < children.length; i++) {
            children[i] = start(i, 1);
        }
        for (ChildServer c : children) {
            if (!c.awaitReady(READY_WAIT_MILLIS)) {
                throw new IllegalStateException("management server process " + c.index + " did not come up within "
                        + READY_WAIT_MILLIS / 1000 + " s" + errorTail(c));
            }
        }
    }

    /** The current process of server {@code index}. */
    synchronized ChildServer server(int index) {
        return children[index];
    }

    int size() {
        return children.length;
    }

    /** Starts a run; under the fleet's lock, so that none starts once the fleet is closed. */
    private ChildServer start(int index, long runid) {
        if (closed) {
            throw new IllegalStateException("the run has ended: server " + index + " is not started again");
        }
        Path log = dir.resolve("server-" + index + "-run-" + runid + ".log");
        synchronized (logs) {
            logs.add(log);
        }
        try {
            ChildServer child = ChildServer.start(new ServerProcess.Settings(index, Simulation.msid(index), runid,
                    topology.urlOf(index), config.user(), config.password(), config.mode(), config.workersPerServer(),
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

    /** Injects the faults of {@code script} and {@code pauses}, each at its time from {@code started}. */
    void runFaults(OperationScript script, long started) {
        List<Fault> plan = faultPlan(script);
        try {
            for (Fault f : plan) {
                if (!Sleep.until(started + TimeUnit.MILLISECONDS.toNanos(f.atMillis()))) {
                    return;
                }
                ChildServer target = awaitUp(f.server());
                if (target == null) {
                    continue; // it did not come back in time: no fault to inject
                }
                try {
                    inject(f, target);
                } finally {
                    synchronized (this) {
                        heldDown[f.server()] = false; // a paused one fences itself; the supervisor restarts it
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            failure.compareAndSet(null, new UncheckedIOException(e));
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    private void inject(Fault f, ChildServer target) throws IOException, InterruptedException {
        if (f.pause()) {
            faults.write("PAUSE", f.server(), target.runid);
            if (!target.pause()) {
                return; // it ended by itself just before: the supervisor restarts it
            }
            Thread.sleep(f.lastsMillis());
            target.resume();
            faults.write("RESUME", f.server(), target.runid);
            pausesDone.incrementAndGet();
        } else {
            target.kill();
            // Written once the process is gone: every line it wrote sorts before.
            faults.write("KILL", f.server(), target.runid);
            kills.incrementAndGet();
            Thread.sleep(f.lastsMillis());
            synchronized (this) {
                children[f.server()] = start(f.server(), nextRunid.getAndIncrement());
            }
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
    final class SupervisorLoop implements Runnable {
        volatile boolean stop;

        @Override
        public void run() {
            while (!stop) {
                for (int i = 0; i < children.length; i++) {
                    synchronized (ServerFleet.this) {
                        ChildServer c = children[i];
                        if (closed || heldDown[i] || c.running()) {
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
                        try {
                            children[i] = start(i, nextRunid.getAndIncrement());
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                            return;
                        }
                    }
                }
                if (!Sleep.millis(100)) {
                    return;
                }
            }
        }
    }

    /** Ends every server cleanly (resumed first); the number that had to be killed. */
    int stopAll() throws InterruptedException {
        int killed = 0;
        for (int i = 0; i < children.length; i++) {
            ChildServer c = server(i);
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

    /** Ends the fleet: no server starts any more, and every process still running is killed. */
    void close() {
        List<ChildServer> running = new ArrayList<>();
        synchronized (this) {
            closed = true;
            for (ChildServer c : children) {
                if (c != null) {
                    running.add(c);
                }
            }
        }
        for (ChildServer c : running) {
            if (c != null && c.running()) {
                try {
                    c.kill();
                } catch (InterruptedException | IllegalStateException e) {
                    // reported by the caller's failure
                }
            }
        }
    }

}
