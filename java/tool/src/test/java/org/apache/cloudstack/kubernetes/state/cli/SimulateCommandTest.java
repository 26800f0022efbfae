package org.apache.cloudstack.kubernetes.state.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.simulate.ControlPlaneSimulation;
import org.apache.cloudstack.kubernetes.state.simulate.SimulationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** `cks-state simulate` with fixed seeds on H2 and MariaDB. */
class SimulateCommandTest {
    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (-?\\d+)").matcher(json);
        assertTrue(m.find(), key + " missing in " + json);
        return Long.parseLong(m.group(1));
    }

    @ParameterizedTest(name = "{0} seeds 7 and 8: every invariant 0, exit 0")
    @EnumSource(ToolDatabase.class)
    void fixedSeedsKeepEveryInvariant(ToolDatabase db) throws Exception {
        for (String seed : new String[] {"7", "8"}) {
            db.reset();
            String[] args = db == ToolDatabase.H2
                    ? new String[] {"simulate", "--quiet", "--format", "json", "--seed", seed, "--operations", "200"}
                    : new String[] {"simulate", "--quiet", "--format", "json", "--seed", seed, "--operations", "200",
                        "--jdbc-url", db.url()};
            ToolRun run = ToolRun.of(args);
            assertEquals(0, run.code(), run.out() + run.err());
            String json = run.out();
            assertEquals(0, number(json, "double_entries"), json);
            assertEquals(0, number(json, "stuck_clusters"), json);
            assertEquals(0, number(json, "illegal_transitions"), json);
            assertTrue(json.contains("\"invariants\": {") && json.contains("\"known_windows\": {"), json);
            long outcomes = number(json, "entered") + number(json, "proceeded") + number(json, "nothing_to_do")
                    + number(json, "refused") + number(json, "lost_race") + number(json, "stopped_by_crash");
            assertTrue(outcomes >= 200 - number(json, "not_dispatched_in_time"), "every operation ends somehow: " + json);
            assertTrue(number(json, "passes") > 0, json);
        }
    }

    @Test
    void sameSeedSameScriptOtherSeedOtherScript() {
        SimulationConfig a = SimulationConfig.defaults();
        SimulationConfig b = new SimulationConfig(a.servers(), a.clusters(), a.operations(), a.crashes(), 43L,
                a.maxSeconds(), a.workersPerServer(), a.meanOperationMillis(), a.arrivalMillis(), a.scannerMillis(),
                a.failureRate(), a.legacyJobRate(), a.widenWindows(), null, null, null);
        assertEquals(ControlPlaneSimulation.scriptFingerprint(a), ControlPlaneSimulation.scriptFingerprint(a));
        assertNotEquals(ControlPlaneSimulation.scriptFingerprint(a), ControlPlaneSimulation.scriptFingerprint(b));
        ToolRun first = ToolRun.of("simulate", "--quiet", "--format", "json", "--seed", "5", "--operations", "60");
        ToolRun second = ToolRun.of("simulate", "--quiet", "--format", "json", "--seed", "5", "--operations", "60");
        Matcher f1 = Pattern.compile("\"script_fingerprint\": \"(\\w+)\"").matcher(first.out());
        Matcher f2 = Pattern.compile("\"script_fingerprint\": \"(\\w+)\"").matcher(second.out());
        assertTrue(f1.find() && f2.find(), first.out());
        assertEquals(f1.group(1), f2.group(1));
    }

    @Test
    void textReportNamesEverySection() {
        ToolRun run = ToolRun.of("simulate", "--quiet", "--operations", "40", "--crashes", "1");
        assertEquals(0, run.code(), run.err());
        for (String section : new String[] {"operations:", "crashes:", "scanner:", "cas_latency_us:", "invariants:",
            "known_windows:", "final_states:"}) {
            assertTrue(run.out().contains(section), section + " in " + run.out());
        }
    }

    @Test
    void badOptionsGiveAClearMessageAndExitTwo() {
        ToolRun zero = ToolRun.of("simulate", "--servers", "0");
        assertEquals(2, zero.code());
        assertTrue(zero.err().contains("servers must be positive"), zero.err());
        ToolRun format = ToolRun.of("simulate", "--format", "xml");
        assertEquals(2, format.code());
        assertTrue(format.err().contains("--format"), format.err());
        ToolRun unknown = ToolRun.of("simulate", "--bogus");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("Unknown option: '--bogus'"), unknown.err());
        ToolRun env = ToolRun.of("simulate", "--jdbc-url", "jdbc:h2:mem:x", "--password-env", "CKS_NO_SUCH_VARIABLE_X");
        assertEquals(2, env.code());
        assertTrue(env.err().contains("CKS_NO_SUCH_VARIABLE_X is not set"), env.err());
    }
}
