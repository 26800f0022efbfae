// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Docs that compile, as doc-tests do: every ```java block of the docs below is preceded by
 * {@code <!-- snippet: Class#region -->} and is, line for line, that region of the examples'
 * sources (between {@code // region NAME} and {@code // endregion}, common indentation removed);
 * every region is shown by some doc. ExamplesTest runs the regions' code. A block preceded by
 * {@code <!-- snippet: cloudstack:PATH#DECLARATION -->} is code of the patched plugin, checked
 * against it by scripts/check-cloudstack-snippets.py (make cloudstack).
 */
class DocSnippetsTest {
    private static final List<String> DOCS = List.of("docs/cloudstack-integration.md", "docs/fenced-mode.md",
            "docs/java-api.md");
    private static final Pattern MARKER = Pattern.compile("<!-- snippet: (\\w+)#([\\w-]+) -->");
    private static final Pattern CLOUDSTACK_MARKER = Pattern.compile("<!-- snippet: cloudstack:[\\w/.-]+\\.java#.+ -->");

    private static Path root() {
        String root = System.getProperty("cks.repo.root", "");
        assertFalse(root.isEmpty() || root.startsWith("${"), "cks.repo.root is not set");
        return Path.of(root);
    }

    private static Path sources() {
        return root().resolve("java/examples/src/main/java");
    }

    /** Class name -> source file of the examples. */
    private static Path source(String className) {
        try (Stream<Path> files = Files.walk(sources())) {
            return files.filter(p -> p.getFileName().toString().equals(className + ".java")).findFirst()
                    .orElseGet(() -> fail("no example source " + className + ".java under " + sources()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The region's lines, their common indentation removed. */
    static String region(List<String> lines, String name, String where) {
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).strip();
            if (t.equals("// region " + name)) {
                assertEquals(-1, start, "region " + name + " twice in " + where);
                start = i + 1;
            } else if (start >= 0 && end < 0 && t.equals("// endregion")) {
                end = i;
            }
        }
        assertTrue(start >= 0 && end >= start, "no region " + name + " in " + where);
        List<String> body = lines.subList(start, end);
        int indent = body.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String l : body) {
            out.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return out.toString();
    }

    private record Snippet(String doc, int line, String className, String region, String code) {
    }

    private static List<Snippet> snippets() throws IOException {
        List<Snippet> out = new ArrayList<>();
        for (String doc : DOCS) {
            List<String> lines = Files.readAllLines(root().resolve(doc));
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).strip().equals("```java")) {
                    continue;
                }
                int m = i - 1;
                while (m >= 0 && lines.get(m).isBlank()) {
                    m--;
                }
                Matcher marker = m >= 0 ? MARKER.matcher(lines.get(m).strip()) : null;
                boolean plugin = m >= 0 && CLOUDSTACK_MARKER.matcher(lines.get(m).strip()).matches();
                if (!plugin && (marker == null || !marker.matches())) {
                    fail(doc + ":" + (i + 1) + ": a ```java block without <!-- snippet: Class#region --> (or cloudstack:PATH#DECLARATION) before it");
                }
                StringBuilder code = new StringBuilder();
                int j = i + 1;
                while (j < lines.size() && !lines.get(j).strip().equals("```")) {
                    code.append(lines.get(j)).append('\n');
                    j++;
                }
                if (!plugin) {
                    out.add(new Snippet(doc, i + 1, marker.group(1), marker.group(2), code.toString()));
                }
                i = j;
            }
        }
        return out;
    }

    @Test
    void everyJavaSnippetIsItsRegionOfTheExamples() throws IOException {
        List<Snippet> all = snippets();
        assertTrue(all.size() >= 1, "the docs' snippets: " + all.size());
        for (Snippet s : all) {
            Path file = source(s.className());
            String expected = region(Files.readAllLines(file), s.region(), file.toString());
            assertEquals(expected, s.code(), s.doc() + ":" + s.line() + " differs from " + s.className() + "#"
                    + s.region() + ": paste the region into the doc (or change the example)");
        }
    }

    @Test
    void everyRegionIsShown() throws IOException {
        Set<String> shown = new LinkedHashSet<>();
        for (Snippet s : snippets()) {
            shown.add(s.className() + "#" + s.region());
        }
        Pattern regionLine = Pattern.compile("^\\s*// region ([\\w-]+)\\s*$");
        try (Stream<Path> files = Files.walk(sources())) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String className = f.getFileName().toString().replace(".java", "");
                for (String line : Files.readAllLines(f)) {
                    Matcher m = regionLine.matcher(line);
                    if (m.matches()) {
                        assertTrue(shown.contains(className + "#" + m.group(1)), className + "#" + m.group(1)
                                + " is in no doc");
                    }
                }
            }
        }
    }

    @Test
    void aRegionIsItsLinesWithoutTheirCommonIndentation() {
        List<String> source = List.of("class X {", "    // region r", "    int a = 1;", "", "        int b = 2;",
                "    // endregion", "}");
        assertEquals("int a = 1;\n\n    int b = 2;\n", region(source, "r", "X"));
    }
}
