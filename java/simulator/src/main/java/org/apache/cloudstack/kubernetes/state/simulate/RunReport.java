// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.Map;
import java.util.TreeMap;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.simulate.OperationOutcomes.EntryOutcome;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/** The report of a run, one layout for threads and processes (docs/simulate-report.md). */
final class RunReport {
    /** What a run counted. */
    record Counts(OperationOutcomes outcomes, LatencyRecorder latency, ScannerStats scan, InvariantMonitor monitor,
            int crashes, int jobsFailed, int notDispatched, int stuck, int illegal) {
    }

    private RunReport() {
    }

    /** Clusters left in an operation's state. */
    static int stuck(ClusterStateMachine<State, Event> machine, Map<Long, String> finalStates) {
        int stuck = 0;
        for (String s : finalStates.values()) {
            if (machine.orphanStates().contains(machine.state(s))) {
                stuck++;
            }
        }
        return stuck;
    }

    static SimulationReport build(SimulationConfig config, OperationScript script, String database, Counts n,
            Map<Long, String> finalStates, long started) {
        OperationOutcomes outcomes = n.outcomes();
        LatencyRecorder latency = n.latency();
        ScannerStats scan = n.scan();
        InvariantMonitor monitor = n.monitor();
        boolean fenced = config.mode() == StateMode.FENCED;
        SimulationReport r = new SimulationReport();
        r.put("seed", config.seed());
        r.put("script_fingerprint", Long.toHexString(script.fingerprint()));
        r.put("database", database);
        r.put("duration_seconds", (System.nanoTime() - started) / 1e9);
        Map<String, Object> setup = r.section("setup");
        setup.put("servers", config.servers());
        setup.put("clusters", config.clusters());
        setup.put("operations", script.operations().size());
        setup.put("widen_windows", config.widenWindows());
        setup.put("mode", config.mode().label());
        setup.put("closed_windows", fenced ? "live_operations_failed concurrent_proceeds" : "none");
        Map<String, Object> ops = r.section("operations");
        ops.put("entered", outcomes.get(EntryOutcome.ENTERED));
        ops.put("proceeded", outcomes.get(EntryOutcome.PROCEEDED));
        ops.put("nothing_to_do", outcomes.get(EntryOutcome.NOTHING_TO_DO));
        ops.put("refused", outcomes.get(EntryOutcome.REFUSED));
        ops.put("lost_race", outcomes.get(EntryOutcome.LOST_RACE));
        ops.put("work_failed", outcomes.workFailed.get());
        ops.put("completion_missed", outcomes.completionMissed.get());
        ops.put("stopped_by_crash", outcomes.crashedMidOperation.get());
        ops.put("rerouted_from_down_server", outcomes.rerouted.get());
        ops.put("not_dispatched_in_time", n.notDispatched());
        ops.put("database_errors", outcomes.databaseErrors.get());
        ops.put("jobs_left_in_progress", outcomes.jobsLeftInProgress.get());
        Map<String, Object> crash = r.section("crashes");
        crash.put("crashes", n.crashes());
        crash.put("jobs_failed_on_restart", n.jobsFailed());
        crash.put("clusters_recovered", scan.recovered.get());
        Map<String, Object> scanner = r.section("scanner");
        scanner.put("passes", scan.passes.get());
        scanner.put("statements", scan.statements.get());
        scanner.put("max_statements_per_pass", scan.maxStatementsPerPass.get());
        scanner.put("job_lookups_skipped", scan.jobLookupsSkipped.get());
        scanner.put("passes_waited", scan.waited.get());
        scanner.put("recoveries_missed", scan.recoveryMissed.get());
        scanner.put("alert_reconciliations", scan.reconciled.get());
        scanner.put("database_errors", scan.databaseErrors.get());
        Map<String, Object> cas = r.section("cas_latency_us");
        cas.put("samples", latency.count());
        cas.put("p50", latency.percentileMicros(50));
        cas.put("p90", latency.percentileMicros(90));
        cas.put("p99", latency.percentileMicros(99));
        cas.put("max", latency.percentileMicros(100));
        Map<String, Object> invariants = r.section("invariants");
        invariants.put("double_entries", monitor.doubleEntries.get());
        invariants.put("stuck_clusters", n.stuck());
        invariants.put("illegal_transitions", n.illegal());
        // Fenced mode closes two of the upstream windows: one invariant counts the closed windows that
        // opened, so that every counter keeps its name and section in both modes.
        int closedOpened = fenced ? monitor.liveOperationsFailed.get() + monitor.concurrentProceeds.get() : 0;
        invariants.put("closed_windows_opened", closedOpened);
        Map<String, Object> windows = r.section("known_windows");
        windows.put("live_operations_failed", monitor.liveOperationsFailed.get());
        windows.put("zombie_completions", monitor.zombieCompletions.get());
        windows.put("concurrent_proceeds", monitor.concurrentProceeds.get());
        windows.put("stop_takeovers_of_starting", monitor.stopTakeovers.get());
        windows.put("overrun_by_zombies", monitor.overrunByZombies.get());
        Map<String, Object> states = r.section("final_states");
        Map<String, Integer> counts = new TreeMap<>();
        for (String s : finalStates.values()) {
            counts.merge(s, 1, Integer::sum);
        }
        states.putAll(counts);
        return r;
    }

}
