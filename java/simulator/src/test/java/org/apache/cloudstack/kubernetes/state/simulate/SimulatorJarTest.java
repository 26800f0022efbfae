// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.tool.cli.ToolRun;
import org.junit.jupiter.api.Test;

/** The simulator's jar is the tool plus simulate; the README's sample report is a simulate report's layout. */
class SimulatorJarTest {
    @Test
    void helpListsTheToolsCommandsAndSimulate() {
        ToolRun all = ToolRun.on(SimulatorMain.commandLine(), "help");
        assertEquals(0, all.code());
        for (String command : new String[] {"scan", "explain", "schema", "simulate", "table", "rules"}) {
            assertTrue(all.out().contains("  " + command + " "), command + " in " + all.out());
        }
        assertFalse(all.out().contains("simulate-server"), "the child servers' command is hidden: " + all.out());
        ToolRun none = ToolRun.on(SimulatorMain.commandLine());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("simulate"), none.err());
    }

    @Test
    void readmesSampleReportHasTheReportsKeysInOrder() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("cks.repo.root"), "README.md"));
        String intro = "A report of a default run:\n\n```text\n";
        int start = readme.indexOf(intro);
        assertTrue(start >= 0, "README.md has no sample report");
        start += intro.length();
        String sample = readme.substring(start, readme.indexOf("```", start));
        ToolRun run = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--operations", "40");
        assertEquals(0, run.code(), run.err());
        assertEquals(keys(run.out()), keys(sample), "README.md's sample report is not the report's layout: paste a"
                + " `cks-state simulate` report into it");
    }

    /** A report's keys and sections in order, up to the final states (which depend on the run). */
    private static List<String> keys(String report) {
        String head = report.substring(0, report.indexOf("final_states:"));
        return head.lines().filter(l -> !l.isBlank()).map(l -> l.replaceFirst("^(\\s*\\S+).*", "$1")).toList();
    }
}
