// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.tool.cli.ToolDatabase;
import org.apache.cloudstack.kubernetes.state.tool.cli.ToolRun;
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
            String[] args = db == ToolDatabase.H2
                    ? new String[] {"simulate", "--quiet", "--format", "json", "--seed", seed, "--operations", "200"}
                    : new String[] {"simulate", "--quiet", "--format", "json", "--seed", seed, "--operations", "200",
                        "--jdbc-url", SimulateUrl.of(db)};
            ToolRun run = ToolRun.on(SimulatorMain.commandLine(), args);
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
        assertEquals(Simulation.scriptFingerprint(a), Simulation.scriptFingerprint(a));
        assertNotEquals(Simulation.scriptFingerprint(a), Simulation.scriptFingerprint(b));
        ToolRun first = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--format", "json", "--seed", "5", "--operations", "60");
        ToolRun second = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--format", "json", "--seed", "5", "--operations", "60");
        Matcher f1 = Pattern.compile("\"script_fingerprint\": \"(\\w+)\"").matcher(first.out());
        Matcher f2 = Pattern.compile("\"script_fingerprint\": \"(\\w+)\"").matcher(second.out());
        assertTrue(f1.find() && f2.find(), first.out());
        assertEquals(f1.group(1), f2.group(1));
    }

    @Test
    void textReportNamesEverySection() {
        ToolRun run = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--operations", "40", "--crashes", "1");
        assertEquals(0, run.code(), run.err());
        for (String section : new String[] {"operations:", "crashes:", "scanner:", "cas_latency_us:", "invariants:",
            "known_windows:", "final_states:"}) {
            assertTrue(run.out().contains(section), section + " in " + run.out());
        }
    }

    @Test
    void badOptionsGiveAClearMessageAndExitTwo() {
        ToolRun zero = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--servers", "0");
        assertEquals(2, zero.code());
        assertEquals("cks-state simulate: --servers must be positive\ntry 'cks-state simulate --help'\n", zero.err());
        for (String[] option : new String[][] {{"--duration", "0", "must be positive"}, {"--workers", "-1", "must be positive"},
            {"--operation-ms", "0", "must be positive"}, {"--crashes", "-2", "must not be negative"},
            {"--failure-rate", "1.5", "must be between 0 and 1"}}) {
            ToolRun bad = ToolRun.on(SimulatorMain.commandLine(), "simulate", option[0], option[1]);
            assertEquals(2, bad.code(), bad.err());
            assertEquals("cks-state simulate: " + option[0] + " " + option[2] + "\ntry 'cks-state simulate --help'\n",
                    bad.err(), "an option error names the option, not a field, and shows no usage");
        }
        ToolRun format = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--format", "xml");
        assertEquals(2, format.code());
        assertTrue(format.err().contains("--format"), format.err());
        ToolRun unknown = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--bogus");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("unknown option --bogus"), unknown.err());
        ToolRun env = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--jdbc-url", "jdbc:h2:mem:x", "--password-env", "CKS_NO_SUCH_VARIABLE_X");
        assertEquals(2, env.code());
        assertTrue(env.err().contains("CKS_NO_SUCH_VARIABLE_X is not set"), env.err());
    }

    /** A wrong password is said at once by the driver, not after the pool's connect timeout as "no connection". */
    @Test
    void aWrongPasswordOnMariaDbIsTheDriversAnswer() {
        String wrong = "Wr0ng-Sim-5521";
        String url = SimulateUrl.of(ToolDatabase.MARIADB).replaceFirst("([?&])password=[^&]*", "$1password=" + wrong);
        ToolRun run = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--operations", "5", "--jdbc-url", url);
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.err().startsWith("cks-state simulate: ") && run.err().contains("Access denied"), run.err());
        assertTrue(!run.err().contains("No connection available"), run.err());
        assertTrue(!(run.out() + run.err()).contains(wrong), "the password was printed: " + run.err());
    }

    @Test
    void aForeignDatabaseIsRefusedBeforeAnythingIsWritten() throws Exception {
        String url = "jdbc:h2:mem:foreign_db;MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1";
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE TABLE user_data (id int PRIMARY KEY, note varchar(20))");
            st.execute("INSERT INTO user_data VALUES (1, 'keep me')");
            ToolRun run = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--operations", "20", "--jdbc-url", url);
            assertEquals(1, run.code(), run.out() + run.err());
            assertTrue(run.err().startsWith("cks-state simulate: refusing to simulate on " + url + ": it is neither empty"
                    + " nor a previous simulate run's database (it has 1 table(s): user_data)"), run.err());
            try (java.sql.ResultSet rs = c.getMetaData().getTables(c.getCatalog(), null, "%", null)) {
                java.util.List<String> tables = new java.util.ArrayList<>();
                while (rs.next()) {
                    if (!"INFORMATION_SCHEMA".equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                        tables.add(rs.getString("TABLE_NAME"));
                    }
                }
                assertEquals(java.util.List.of("user_data"), tables, "nothing created in a foreign database");
            }
            st.execute("DROP TABLE user_data");
        }
    }

    @Test
    void operationsNotDispatchedInTimeExitFour() {
        ToolRun run = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--format", "json", "--operations", "5000", "--arrival-ms", "20",
                "--duration", "1", "--crashes", "0");
        assertEquals(SimulateCommand.NOT_DISPATCHED, run.code(), run.out() + run.err());
        long late = number(run.out(), "not_dispatched_in_time");
        assertTrue(late > 0, run.out());
        assertTrue(run.err().contains("cks-state simulate: " + late + " of 5000 operations were not dispatched within"
                + " --duration 1 s"), run.err());
        assertEquals(0, number(run.out(), "double_entries"), run.out());
    }

    @Test
    void theReportHasTheSameLayoutInBothModes() {
        ToolRun compat = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--format", "json", "--operations", "40", "--mode", "compat");
        ToolRun fenced = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--format", "json", "--operations", "40", "--mode", "fenced");
        assertEquals(0, compat.code(), compat.err());
        assertEquals(0, fenced.code(), fenced.err());
        assertEquals(layout(compat.out()), layout(fenced.out()));
        assertTrue(compat.out().contains("\"closed_windows\": \"none\""), compat.out());
        assertTrue(fenced.out().contains("\"closed_windows\": \"live_operations_failed concurrent_proceeds\""),
                fenced.out());
    }

    /** Section and counter names in order (final_states differ by run, not by mode). */
    private static java.util.List<String> layout(String json) {
        java.util.List<String> keys = new java.util.ArrayList<>();
        Matcher m = Pattern.compile("\"(\\w+)\": ").matcher(json.substring(0, json.indexOf("\"final_states\"")));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }
}
