// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.simulate.OperationOutcomes.EntryOutcome;

/**
 * Judges a process run from what survives a kill: the action logs of every server run and the
 * parent's log of the faults, merged on the machine's monotonic clock and replayed through the
 * same {@link InvariantMonitor} the threaded simulation uses. A run's operations end with the run
 * (the parent's KILL or EXIT line, written once the process is gone); once a peer set out to mark
 * the run Down (its PEER_DOWN intent), its operations no longer count as live, and a completion of
 * theirs that still hits after another run changed the cluster is a zombie completion (one that hits
 * before is the run ending its own operation while its peers were still deciding).
 */
final class ProcessChecker {
    /** One log line: when, which server run wrote it, and its words. */
    private record Line(long nanos, int server, long runid, String[] words) {
    }

    final OperationOutcomes outcomes = new OperationOutcomes();
    final LatencyRecorder latency = new LatencyRecorder();
    final ScannerStats scan = new ScannerStats();
    final InvariantMonitor monitor = new InvariantMonitor();
    int selfFenced;
    int peersMarkedDown;
    int malformedLines;

    private final List<ScriptedOperation> script;
    private final long msidBase;
    /** Live operations by (server, runid, op index). */
    private final Map<String, ActiveOperation> active = new HashMap<>();
    /** Runs that peers judged gone. */
    private final Set<String> judged = new HashSet<>();
    /** The cluster of each live operation, and those another run changed the cluster under. */
    private final Map<String, Long> clusterOf = new HashMap<>();
    private final Set<String> changedUnder = new HashSet<>();
    /** Operations begun (ENTER) and not ended, by run: what a kill stopped mid-way. */
    private final Map<String, Set<Integer>> open = new HashMap<>();

    ProcessChecker(List<ScriptedOperation> script, long msidBase) {
        this.script = script;
        this.msidBase = msidBase;
    }

    /** Reads the server logs and the parent's fault log, then replays them in time order. */
    void replay(List<Path> serverLogs, Path parentLog) throws IOException {
        List<Line> lines = new ArrayList<>();
        for (Path p : serverLogs) {
            read(p, lines, false);
        }
        read(parentLog, lines, true);
        lines.sort((a, b) -> Long.compare(a.nanos(), b.nanos()));
        for (Line l : lines) {
            apply(l);
        }
    }

    private void read(Path file, List<Line> out, boolean parent) throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        int server = -1;
        long runid = -1;
        for (String text : Files.readAllLines(file)) {
            String[] w = text.split(" ");
            try {
                long nanos = Long.parseLong(w[0]);
                if (!parent && w[1].equals("START")) {
                    server = Integer.parseInt(w[2]);
                    runid = Long.parseLong(w[4]);
                }
                if (parent) { // KILL / PAUSE / RESUME / EXIT <server> <runid> ...
                    out.add(new Line(nanos, Integer.parseInt(w[2]), Long.parseLong(w[3]), w));
                } else {
                    out.add(new Line(nanos, server, runid, w));
                }
            } catch (RuntimeException e) {
                malformedLines++;
            }
        }
    }

    private static String run(int server, long runid) {
        return server + "/" + runid;
    }

    private void apply(Line l) {
        String[] w = l.words();
        String run = run(l.server(), l.runid());
        switch (w[1]) {
            case "ENTER" -> open.computeIfAbsent(run, k -> new HashSet<>()).add(Integer.parseInt(w[2]));
            case "ENTERED" -> entered(l, run, Integer.parseInt(w[2]), Long.parseLong(w[3]), EntryOutcome.valueOf(w[4]),
                    w[5]);
            case "COMPLETED" -> completed(run, Integer.parseInt(w[2]), Long.parseLong(w[3]), Boolean.parseBoolean(w[4]),
                    Boolean.parseBoolean(w[5]), Boolean.parseBoolean(w[6]));
            case "ABANDONED" -> {
                ended(run, Integer.parseInt(w[2]));
                outcomes.databaseErrors.incrementAndGet();
                if (Boolean.parseBoolean(w[4])) {
                    outcomes.jobsLeftInProgress.incrementAndGet();
                }
                ActiveOperation a = active.remove(run + "/" + w[2]);
                clusterOf.remove(run + "/" + w[2]);
                changedUnder.remove(run + "/" + w[2]);
                if (a != null) {
                    monitor.tracker(Long.parseLong(w[3])).active.remove(a);
                }
            }
            case "CAS" -> latency.add(Long.parseLong(w[2]));
            case "RECOVERED" -> {
                if (Boolean.parseBoolean(w[3])) {
                    changed(Long.parseLong(w[2]), run);
                    monitor.scannerRecovered(monitor.tracker(Long.parseLong(w[2])));
                }
            }
            case "PASS" -> {
                scan.passes.incrementAndGet();
                int statements = Integer.parseInt(w[2]);
                scan.statements.addAndGet(statements);
                scan.maxStatementsPerPass.accumulateAndGet(statements, Math::max);
                scan.recovered.addAndGet(Integer.parseInt(w[3]));
                scan.recoveryMissed.addAndGet(Integer.parseInt(w[4]));
                scan.reconciled.addAndGet(Integer.parseInt(w[5]));
                if (Boolean.parseBoolean(w[6])) {
                    scan.waited.incrementAndGet();
                }
                if (Boolean.parseBoolean(w[7])) {
                    scan.jobLookupsSkipped.incrementAndGet();
                }
            }
            case "PASS_FAILED" -> scan.databaseErrors.incrementAndGet();
            case "PEER_DOWN" -> {
                // Judged from the intent on: a write of that run after it is a zombie's.
                int server = (int) (Long.parseLong(w[2]) - msidBase - 1);
                judge(run(server, Long.parseLong(w[3])), server, Long.parseLong(w[3]));
            }
            case "PEER_DOWN_DONE" -> {
                if (Boolean.parseBoolean(w[4])) {
                    peersMarkedDown++;
                }
            }
            case "SELF_FENCE" -> selfFenced++; // its threads may still write until the halt: EXIT ends it
            // The parent writes both once the process is gone: every line of the run sorts before.
            case "KILL", "EXIT" -> runEnded(run, l.server(), l.runid());
            default -> {
                // START, UP, STOP, intents without a result of their own: nothing to judge.
            }
        }
    }

    private void entered(Line l, String run, int op, long clusterId, EntryOutcome outcome, String movedTo) {
        outcomes.count(outcome);
        if (outcome != EntryOutcome.ENTERED && outcome != EntryOutcome.PROCEEDED) {
            ended(run, op);
            return;
        }
        ScriptedOperation scripted = script.get(op);
        ActiveOperation a = new ActiveOperation(scripted, l.server(), l.runid(), outcome == EntryOutcome.ENTERED,
                movedTo.equals("-") ? null : movedTo);
        if (!movedTo.equals("-")) {
            changed(clusterId, run);
        }
        active.put(run + "/" + op, a);
        clusterOf.put(run + "/" + op, clusterId);
        if (!judged.contains(run)) {
            monitor.entered(monitor.tracker(clusterId), a);
        }
    }

    private void completed(String run, int op, long clusterId, boolean moved, boolean hit, boolean workFailed) {
        ended(run, op);
        if (workFailed) {
            outcomes.workFailed.incrementAndGet();
        }
        if (moved && !hit) {
            outcomes.completionMissed.incrementAndGet();
        }
        if (hit) {
            changed(clusterId, run);
        }
        String key = run + "/" + op;
        ActiveOperation a = active.remove(key);
        clusterOf.remove(key);
        boolean overrun = changedUnder.remove(key);
        if (a == null) {
            return;
        }
        if (judged.contains(run)) {
            if (hit && a.entered && overrun) {
                monitor.zombieCompletions.incrementAndGet(); // a run judged gone changed a cluster taken from it
            }
            return;
        }
        monitor.exited(monitor.tracker(clusterId), a, hit);
    }

    /** Run {@code run} changed the cluster: every live operation of another run on it was changed under. */
    private void changed(long clusterId, String run) {
        clusterOf.forEach((key, cluster) -> {
            if (cluster == clusterId && !key.startsWith(run + "/")) {
                changedUnder.add(key);
            }
        });
    }

    private void ended(String run, int op) {
        Set<Integer> ops = open.get(run);
        if (ops != null) {
            ops.remove(op);
        }
    }

    /** Peers judged the run gone: its operations stop counting as live (they may still write). */
    private void judge(String run, int server, long runid) {
        if (judged.add(run)) {
            monitor.crashed(server, runid);
        }
    }

    /** The run is over: what it had begun and not ended was stopped mid-way. */
    private void runEnded(String run, int server, long runid) {
        monitor.crashed(server, runid);
        judged.add(run);
        Set<Integer> ops = open.remove(run);
        if (ops != null) {
            outcomes.crashedMidOperation.addAndGet(ops.size());
        }
        active.keySet().removeIf(k -> k.startsWith(run + "/"));
        clusterOf.keySet().removeIf(k -> k.startsWith(run + "/"));
        changedUnder.removeIf(k -> k.startsWith(run + "/"));
    }
}
