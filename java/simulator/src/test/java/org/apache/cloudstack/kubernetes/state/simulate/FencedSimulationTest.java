// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code simulate --mode fenced --widen-windows}: the two windows fenced mode closes are invariants, all 0. */
class FencedSimulationTest {

    @Test
    void fencedModeWithWidenedWindowsKeepsEveryInvariant() throws Exception {
        SimulationConfig d = SimulationConfig.defaults();
        SimulationConfig config = new SimulationConfig(d.servers(), d.clusters(), 300, d.crashes(), 42L, 30,
                d.workersPerServer(), d.meanOperationMillis(), d.arrivalMillis(), d.scannerMillis(), d.failureRate(),
                d.legacyJobRate(), true, null, null, null, StateMode.FENCED);
        SimulationReport report = Simulation.threads(config, line -> { }).run();
        String json = report.toJson();
        assertTrue(report.invariantsHold(), json);
        assertEquals(0, report.number("invariants", "closed_windows_opened"), json);
        assertEquals(0, report.number("known_windows", "live_operations_failed"), json);
        assertEquals(0, report.number("known_windows", "concurrent_proceeds"), json);
        assertEquals(0, report.number("invariants", "stuck_clusters"), json);
        assertEquals(0, report.number("known_windows", "zombie_completions"), json);
        assertTrue(json.contains("\"mode\": \"fenced\""), json);
        assertTrue(report.number("operations", "entered") > 0 && report.number("scanner", "passes") > 0, json);
    }

    @Test
    void modeOptionIsCheckedAndDefaultsToCompat() {
        StringWriter err = new StringWriter();
        CommandLine cl = SimulatorMain.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertEquals(2, cl.execute("simulate", "--mode", "strict"));
        assertTrue(err.toString().startsWith("cks-state simulate: --mode must be compat or fenced, not 'strict'"), err.toString());
        assertEquals(StateMode.COMPAT, SimulationConfig.defaults().mode());
    }
}
