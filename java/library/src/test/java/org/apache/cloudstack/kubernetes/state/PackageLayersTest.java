// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's packages as docs/java-api.md draws them: each imports only the packages below it
 * (value and sql at the bottom, then state, then jdbc), the page lists every public type under its
 * package, and no public method of the API takes or returns a type of the sql helpers.
 */
class PackageLayersTest {
    private static final String BASE = "org.apache.cloudstack.kubernetes.state";
    /** A package's floor: it may import packages of a lower floor only. */
    private static final Map<String, Integer> FLOOR = Map.of("value", 0, "sql", 0, "state", 1, "jdbc", 2);
    /** The heading of each package's table on the page. */
    private static final Map<String, String> SECTION = Map.of("state", "## Types", "jdbc", "### JDBC (package",
            "value", "### Values (package", "sql", "### SQL helpers (package");
    private static final Pattern PUBLIC_TYPE =
            Pattern.compile("^public (?:final |abstract |sealed )*(?:class|interface|enum|record|@interface) (\\w+)", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?" + Pattern.quote(BASE) + "\\.(\\w+)", Pattern.MULTILINE);

    private static Path sources() {
        return Path.of(System.getProperty("cks.repo.root"), "java", "library", "src", "main", "java",
                BASE.replace('.', '/'));
    }

    /** Each package's source files, by package name (the base package is "state"). */
    private static Map<String, List<Path>> filesByPackage() throws IOException {
        Map<String, List<Path>> out = new TreeMap<>();
        for (String pkg : FLOOR.keySet()) {
            Path dir = pkg.equals("state") ? sources() : sources().resolve(pkg);
            try (Stream<Path> files = Files.list(dir)) {
                out.put(pkg, files.filter(f -> f.toString().endsWith(".java")).sorted().toList());
            }
        }
        try (Stream<Path> dirs = Files.list(sources())) {
            List<String> packages = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
            assertEquals(FLOOR.keySet().stream().filter(p -> !p.equals("state")).sorted().toList(), packages,
                    "a package of the library without a floor in this test and a section on the page");
        }
        return out;
    }

    private static String packageOf(String imported) {
        return FLOOR.containsKey(imported) && !imported.equals("state") ? imported : "state";
    }

    @Test
    void everyPackageImportsOnlyTheFloorsBelowIt() throws IOException {
        List<String> upward = new ArrayList<>();
        int imports = 0;
        for (Map.Entry<String, List<Path>> e : filesByPackage().entrySet()) {
            for (Path file : e.getValue()) {
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    imports++;
                    String target = packageOf(m.group(1));
                    if (!target.equals(e.getKey()) && FLOOR.get(target) >= FLOOR.get(e.getKey())) {
                        upward.add(e.getKey() + "/" + file.getFileName() + " -> " + target);
                    }
                }
            }
        }
        assertTrue(imports > 50, "the imports were not read: " + imports);
        assertEquals(List.of(), upward, "imports that run up or sideways between the library's packages");
    }

    @Test
    void thePageListsEveryPublicTypeUnderItsPackage() throws IOException {
        String page = ApiDocTest.doc();
        List<String> missing = new ArrayList<>();
        int types = 0;
        for (Map.Entry<String, List<Path>> e : filesByPackage().entrySet()) {
            int start = page.indexOf(SECTION.get(e.getKey()));
            assertTrue(start >= 0, "docs/java-api.md has no section " + SECTION.get(e.getKey()));
            int end = page.indexOf("\n#", start + 1);
            List<String> firstCells = page.substring(start, end < 0 ? page.length() : end).lines()
                    .filter(l -> l.startsWith("| `")).map(l -> l.split("\\|", 3)[1]).toList();
            for (Path file : e.getValue()) {
                Matcher m = PUBLIC_TYPE.matcher(Files.readString(file));
                if (m.find()) {
                    types++;
                    Pattern named = Pattern.compile("(?<![\\w.])" + m.group(1) + "\\b");
                    boolean ownSection = page.contains("\n## `" + m.group(1));
                    if (!ownSection && firstCells.stream().noneMatch(c -> named.matcher(c).find())) {
                        missing.add(e.getKey() + "." + m.group(1));
                    }
                }
            }
        }
        assertTrue(types > 40, "the public types were not read: " + types);
        assertEquals(List.of(), missing, "public types docs/java-api.md does not list under their package's section");
    }

    @Test
    void noPublicMethodOfTheApiTakesOrReturnsAnSqlHelper() throws Exception {
        List<String> carrying = new ArrayList<>();
        for (Map.Entry<String, List<Path>> e : filesByPackage().entrySet()) {
            if (e.getKey().equals("sql")) {
                continue;
            }
            String pkg = e.getKey().equals("state") ? BASE : BASE + "." + e.getKey();
            for (Path file : e.getValue()) {
                String name = file.getFileName().toString().replace(".java", "");
                if (name.equals("package-info")) {
                    continue;
                }
                Class<?> type = Class.forName(pkg + "." + name);
                if (!Modifier.isPublic(type.getModifiers())) {
                    continue;
                }
                List<Executable> members = new ArrayList<>(List.of(type.getDeclaredMethods()));
                members.addAll(List.<Constructor<?>>of(type.getDeclaredConstructors()));
                for (Executable x : members) {
                    if (!Modifier.isPublic(x.getModifiers())) {
                        continue;
                    }
                    List<Class<?>> carried = new ArrayList<>(List.of(x.getParameterTypes()));
                    if (x instanceof Method method) {
                        carried.add(method.getReturnType());
                    }
                    for (Class<?> c : carried) {
                        if (c.getPackageName().equals(BASE + ".sql")) {
                            carrying.add(type.getSimpleName() + "." + x.getName() + " carries " + c.getSimpleName());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), carrying, "public API methods that take or return a type of the sql package");
    }
}
