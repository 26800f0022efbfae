// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.cloudstack.kubernetes.state.StateMode;

/**
 * The native calls of one write on each write path ({@link WritePaths}), both modes, on the embedded
 * H2 database, as a Markdown table. Counted by the test-hooks build of the library (BENCH_JAVA loads
 * it). Usage: {@code CallsPerWriteBenchmark summary.md}.
 */
public final class CallsPerWriteBenchmark {
    private CallsPerWriteBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Databases.Db h2 = Databases.perDatabase().findFirst().orElseThrow();
        StringBuilder out = new StringBuilder("Native calls per write, by path (one write each; a scanner pass "
                + "writes every orphan it finds)\n\n| path | compat | fenced |\n|---|---|---|\n");
        Map<String, Map<String, Long>> compat = WritePaths.calls(h2, StateMode.COMPAT);
        Map<String, Map<String, Long>> fenced = WritePaths.calls(h2, StateMode.FENCED);
        boolean one = true;
        Set<String> paths = new LinkedHashSet<>(compat.keySet());
        paths.addAll(fenced.keySet());
        for (String path : paths) {
            out.append("| ").append(path).append(" | ").append(cell(compat.get(path))).append(" | ")
                    .append(cell(fenced.get(path))).append(" |\n");
            one &= (compat.get(path) == null || total(compat.get(path)) == 1)
                    && (fenced.get(path) == null || total(fenced.get(path)) == 1);
        }
        out.append("\n| target | verdict |\n|---|---|\n| one native call per write on every path (a scanner pass: one "
                + "whatever it writes) | ").append(one ? "met" : "MISSED").append(" |\n");
        System.out.println(out);
        if (args.length > 0) {
            write(args[0], out.toString());
        }
    }

    /** "2: entry 1, writeShapeError 1", or "-" for a path the mode has not. */
    private static String cell(Map<String, Long> calls) {
        if (calls == null) {
            return "-";
        }
        return total(calls) + ": " + calls.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static long total(Map<String, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void write(String path, String text) throws IOException {
        Files.writeString(Paths.get(path), text, StandardCharsets.UTF_8);
    }
}
