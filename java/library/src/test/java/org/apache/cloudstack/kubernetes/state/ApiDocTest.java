// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/java-api.md against the code: the ABI number, every signature of the ClusterStateMachine
 * block, and every method, constant and enum list its type tables name. A doc that drifts fails here.
 */
class ApiDocTest {
    private static final String[] PACKAGES = {"org.apache.cloudstack.kubernetes.state.",
        "org.apache.cloudstack.kubernetes.state.jdbc.", "org.apache.cloudstack.kubernetes.state.value.",
        "org.apache.cloudstack.kubernetes.state.sql."};
    private static final Pattern CALL = Pattern.compile("(?<![\\w.<>])(?:([A-Z]\\w*)\\.)?([a-z]\\w*)\\(([^()]*)\\)");
    private static final Pattern CONSTANT = Pattern.compile("`(?:([A-Z]\\w*)\\.)?([A-Z][A-Z0-9_]+)`");
    private static final Pattern RECORD = Pattern.compile("(?<!new )\\b([A-Z]\\w*)(?:<[^()]*?>)?\\(([^()]*)\\)");
    private static final Pattern ENUM_LIST = Pattern.compile("(?:enum )?([A-Z]\\w*) \\{ ([A-Z0-9_, ]+) \\}");

    static String doc() throws IOException {
        return Files.readString(Path.of(System.getProperty("cks.repo.root"), "docs", "java-api.md"));
    }

    @Test
    void abiNumberIsTheLibrarys() throws IOException {
        Matcher m = Pattern.compile("ABI version (\\d+)").matcher(doc());
        assertTrue(m.find(), "docs/java-api.md names no ABI version");
        assertEquals(NativeLibrary.expectedAbiVersion(), Integer.parseInt(m.group(1)), "docs/java-api.md's ABI version");
    }

    @Test
    void everyClusterStateMachineSignatureIsPublic() throws IOException {
        String doc = doc();
        int head = doc.indexOf("## `ClusterStateMachine");
        int start = doc.indexOf("```text\n", head) + 8;
        String block = doc.substring(start, doc.indexOf("```", start)).replaceAll("//[^\n]*", "");
        List<String> checked = new ArrayList<>();
        for (String declaration : block.replace("\n", " ").split(";")) {
            Matcher m = Pattern.compile("(\\w+)\\((.*)\\)\\s*$").matcher(declaration.trim());
            if (m.find()) {
                List<String> params = parameterTypes(m.group(2));
                assertTrue(Arrays.stream(ClusterStateMachine.class.getMethods())
                        .anyMatch(x -> x.getName().equals(m.group(1)) && typeNames(x).equals(params)),
                        "docs/java-api.md: ClusterStateMachine has no public " + m.group(1) + params);
                checked.add(m.group(1));
            }
        }
        assertTrue(checked.size() >= 20, "the signature block was not read: " + checked);
    }

    @Test
    void everyMethodConstantAndEnumOfTheTypeTablesExists() throws IOException {
        int rows = 0;
        for (String line : doc().lines().filter(l -> l.startsWith("| `")).toList()) {
            String[] cells = line.split("\\|", 4);
            List<Class<?>> types = typesNamed(cells[1]);
            assertTrue(!types.isEmpty(), "docs/java-api.md names no known type in: " + cells[1]);
            String text = cells[1] + "|" + cells[2];
            List<Class<?>> named = new ArrayList<>(types);
            named.addAll(typesNamed(cells[2]));
            Matcher record = RECORD.matcher(text);
            while (record.find()) {
                Class<?> r = typeOrNull(record.group(1));
                if (r != null && r.isRecord()) {
                    List<String> shown = parameterNames(record.group(2));
                    assertEquals(Arrays.stream(r.getRecordComponents()).map(c -> c.getName()).toList(), shown,
                            "docs/java-api.md: the components of record " + r.getName());
                }
            }
            Matcher call = CALL.matcher(text.replaceAll("\\[, [^\\]]*\\]", ""));
            while (call.find()) {
                List<Class<?>> owners = call.group(1) == null ? named : List.of(type(call.group(1)));
                int arity = parameters(call.group(3)).size();
                String name = call.group(2);
                assertTrue(owners.stream().anyMatch(t -> hasMethod(t, name, arity)),
                        "docs/java-api.md: no public " + name + " with " + arity + " arguments in " + owners);
            }
            Matcher constant = CONSTANT.matcher(cells[2]);
            while (constant.find()) {
                List<Class<?>> owners = constant.group(1) == null ? named : List.of(type(constant.group(1)));
                String name = constant.group(2);
                assertTrue(owners.stream().anyMatch(t -> hasConstant(t, name)),
                        "docs/java-api.md: no public constant " + name + " in " + owners);
            }
            Matcher list = ENUM_LIST.matcher(text);
            while (list.find()) {
                List<String> shown = List.of(list.group(2).split(", "));
                String enumName = list.group(1);
                Class<?> e = types.stream().filter(t -> t.getSimpleName().equals(enumName)).findFirst()
                        .orElseGet(() -> nested(types, enumName));
                assertEquals(Arrays.stream(e.getEnumConstants()).map(Object::toString).toList(), shown,
                        "docs/java-api.md: the constants of " + e.getName());
            }
            rows++;
        }
        assertTrue(rows >= 30, "the type tables were not read: " + rows + " rows");
    }

    /** The parameters of a signature, split at the commas outside type arguments. */
    private static List<String> parameters(String params) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : (params + ",").toCharArray()) {
            depth += c == '<' ? 1 : c == '>' ? -1 : 0;
            if (c == ',' && depth == 0) {
                if (!current.toString().isBlank()) {
                    parts.add(current.toString().trim());
                }
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        return parts;
    }

    private static List<String> parameterTypes(String params) {
        return parameters(params).stream().map(p -> p.substring(0, p.lastIndexOf(' ')).replaceAll("<.*>", "").trim())
                .toList();
    }

    private static List<String> parameterNames(String params) {
        return parameters(params).stream().map(p -> p.substring(p.lastIndexOf(' ') + 1)).toList();
    }

    private static List<String> typeNames(Method method) {
        return Arrays.stream(method.getGenericParameterTypes()).map(ApiDocTest::simpleName).toList();
    }

    private static String simpleName(Type type) {
        if (type instanceof TypeVariable<?> v) {
            return v.getName();
        }
        if (type instanceof ParameterizedType p) {
            return simpleName(p.getRawType());
        }
        return ((Class<?>) type).getSimpleName();
    }

    /** The types a table's first cell names (`A<S>` / `B<S>`, `record A(...)`, `enum A { ... }`). */
    private static List<Class<?>> typesNamed(String cell) {
        List<Class<?>> types = new ArrayList<>();
        Matcher m = Pattern.compile("`(?:record |enum )?([A-Z]\\w*)(?:\\.\\w+)?").matcher(cell);
        while (m.find()) {
            Class<?> t = typeOrNull(m.group(1));
            if (t != null) {
                types.add(t);
            }
        }
        return types;
    }

    private static Class<?> type(String simpleName) {
        Class<?> t = typeOrNull(simpleName);
        assertTrue(t != null, "docs/java-api.md names an unknown type " + simpleName);
        return t;
    }

    private static Class<?> typeOrNull(String simpleName) {
        for (String p : PACKAGES) {
            try {
                return Class.forName(p + simpleName);
            } catch (ClassNotFoundException e) {
                // next package
            }
        }
        return null;
    }

    private static Class<?> nested(List<Class<?>> types, String name) {
        return types.stream().flatMap(t -> Arrays.stream(t.getDeclaredClasses()))
                .filter(c -> c.getSimpleName().equals(name) && c.isEnum()).findFirst()
                .orElseThrow(() -> new AssertionError("docs/java-api.md: no enum " + name + " in " + types));
    }

    private static boolean hasMethod(Class<?> type, String name, int arity) {
        for (Class<?> t = type; t != null; t = t.getSuperclass()) {
            for (Method m : t.getDeclaredMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == arity && Modifier.isPublic(m.getModifiers())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasConstant(Class<?> type, String name) {
        try {
            return Modifier.isPublic(type.getField(name).getModifiers());
        } catch (NoSuchFieldException e) {
            return Arrays.stream(type.getDeclaredClasses()).anyMatch(c -> hasConstant(c, name));
        }
    }
}
