// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.tool.cli.ToolRun;
import org.junit.jupiter.api.Test;

/** The cks-state tool, run in-process through picocli. */
class CliTest {
    private final SpecTable spec = SpecTable.get();

    private static ToolRun run(String... args) {
        return ToolRun.of(args);
    }

    private List<String> fileRows(Profile profile) {
        List<String> rows = new ArrayList<>();
        for (SpecTable.Row r : spec.rows(profile)) {
            rows.add(r.from() + "\t" + r.event() + "\t" + r.to());
        }
        return rows;
    }

    @Test
    void tableTsvIsTheFileInOrder() {
        ToolRun r = run("table", "--format", "tsv");
        assertEquals(0, r.code(), r.err());
        assertEquals(fileRows(Profile.newestRelease()), r.out().lines().toList(), "the newest release's table");
        ToolRun alert = run("table", "--profile", "alert-scaling");
        assertEquals(fileRows(Profile.ALERT_SCALING), alert.out().lines().toList());
    }

    @Test
    void tableOtherFormats() {
        ToolRun md = run("table", "--format", "markdown");
        assertEquals(0, md.code());
        assertEquals("| From | Event | To |", md.out().lines().findFirst().orElse(""));
        assertEquals(spec.rows(Profile.newestRelease()).size() + 2, md.out().lines().count());
        ToolRun mermaid = run("table", "--format", "mermaid");
        assertTrue(mermaid.out().startsWith("stateDiagram-v2"));
        assertTrue(mermaid.out().contains("Created --> Starting : StartRequested"), mermaid.out());
        ToolRun dot = run("table", "--format", "dot");
        assertTrue(dot.out().contains("\"Stopped\" -> \"ScalingStoppedCluster\" [label=\"ScaleUpRequested\"];"), dot.out());
    }

    @Test
    void rulesMatrix() {
        ToolRun r = run("rules");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(1 + Operation.values().length, lines.size());
        assertEquals(1 + spec.states.size(), lines.get(0).split("\t").length);
        assertTrue(lines.get(1).startsWith("Start\t-> Starting\t"), lines.get(1));
        ToolRun md = run("rules", "--format", "markdown", "--profile", "alert-scaling");
        assertEquals(0, md.code(), md.err());
        assertTrue(md.out().contains("| Scale |"), md.out());
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertEquals(2, run("table", "--format", "yaml").code());
        assertEquals(2, run("table", "--profile", "sideways").code());
        assertEquals(2, run("rules", "--format", "yaml").code());
        assertEquals(2, run("nonsense").code());
        assertEquals(2, run().code());
        ToolRun bad = run("table", "--bogus");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--bogus"), bad.err());
    }

    @Test
    void helpAndVersion() {
        ToolRun help = run("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("table") && help.out().contains("rules"), help.out());
        ToolRun version = run("--version");
        assertEquals(0, version.code());
        assertTrue(version.out().contains("native ABI " + NativeLibrary.expectedAbiVersion() + ", from "
                + NativeLibrary.source() + ")"), version.out());
    }
}
