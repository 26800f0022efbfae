// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules graph agrees with the rules matrix; the README's diagram is the tool's current output. */
class RulesAndReadmeTest {
    @Test
    void rulesGraphHasOneEdgePerCellThatIsNotARefusal() {
        List<String> matrix = ToolRun.of("rules", "--format", "tsv").out().lines().skip(1).toList();
        long admitted = matrix.stream().flatMap(l -> List.of(l.split("\t")).stream().skip(1))
                .filter(cell -> !cell.equals("refuse")).count();
        long transitions = matrix.stream().flatMap(l -> List.of(l.split("\t")).stream().skip(1))
                .filter(cell -> cell.startsWith("-> ")).count();
        String mermaid = ToolRun.of("rules", "--format", "mermaid").out();
        assertEquals(admitted, mermaid.lines().filter(l -> l.contains("|")).count(), mermaid);
        assertEquals(transitions, mermaid.lines().filter(l -> l.contains(" -->|")).count(), mermaid);
        assertTrue(mermaid.contains("    Running -->|AddNodes| Importing"), mermaid);
        assertTrue(mermaid.contains("    Destroying -.->|Destroy proceed| Destroying"), mermaid);
        String dot = ToolRun.of("rules", "--format", "dot").out();
        assertEquals(admitted, dot.lines().filter(l -> l.contains("->")).count(), dot);
    }

    @Test
    void readmeShowsTheCurrentStateDiagram() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("cks.spec.table")).getParent().getParent()
                .resolve("README.md"));
        String begin = "```mermaid\n";
        int start = readme.indexOf(begin);
        assertTrue(start >= 0, "README.md has no mermaid block");
        String shown = readme.substring(start + begin.length(), readme.indexOf("```", start + begin.length()));
        assertEquals(ToolRun.of("table", "--format", "mermaid").out(), shown,
                "README.md's diagram is stale: paste `cks-state table --format mermaid` into it");
    }
}
