// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.tool.text.Json;

/** The end-of-run report of {@code cks-state simulate}, as text or JSON. */
public final class SimulationReport {
    /** Ordered sections of name -> value (Number, String, Boolean or a nested Map). */
    private final Map<String, Object> root = new LinkedHashMap<>();

    SimulationReport() {
    }

    Map<String, Object> section(String name) {
        @SuppressWarnings("unchecked")
        Map<String, Object> s = (Map<String, Object>) root.computeIfAbsent(name, k -> new LinkedHashMap<String, Object>());
        return s;
    }

    void put(String name, Object value) {
        root.put(name, value);
    }

    /** The number named {@code key} in {@code section}, or -1. */
    public long number(String section, String key) {
        Object s = root.get(section);
        Object v = s instanceof Map ? ((Map<?, ?>) s).get(key) : null;
        return v instanceof Number ? ((Number) v).longValue() : -1;
    }

    /** True when every invariant counter is 0. */
    public boolean invariantsHold() {
        Object s = root.get("invariants");
        if (!(s instanceof Map)) {
            return false;
        }
        for (Object v : ((Map<?, ?>) s).values()) {
            if (!(v instanceof Number) || ((Number) v).longValue() != 0) {
                return false;
            }
        }
        return true;
    }

    public String toJson() {
        StringBuilder out = new StringBuilder();
        json(out, root, 0);
        return out.append('\n').toString();
    }

    private static void json(StringBuilder out, Object value, int indent) {
        if (value instanceof Map) {
            out.append("{");
            String sep = "\n";
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                out.append(sep).append("  ".repeat(indent + 1));
                out.append(Json.quote(e.getKey().toString()));
                out.append(": ");
                json(out, e.getValue(), indent + 1);
                sep = ",\n";
            }
            out.append('\n').append("  ".repeat(indent)).append('}');
        } else if (value instanceof Double) {
            out.append(String.format(Locale.ROOT, "%.1f", (Double) value));
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            out.append(Json.quote(String.valueOf(value)));
        }
    }

    public String toText() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Object> e : root.entrySet()) {
            if (e.getValue() instanceof Map) {
                out.append(e.getKey()).append(":\n");
                for (Map.Entry<?, ?> f : ((Map<?, ?>) e.getValue()).entrySet()) {
                    out.append(String.format(Locale.ROOT, "  %-28s %s%n", f.getKey(), format(f.getValue())));
                }
            } else {
                out.append(String.format(Locale.ROOT, "%-30s %s%n", e.getKey(), format(e.getValue())));
            }
        }
        return out.toString();
    }

    private static String format(Object v) {
        return v instanceof Double ? String.format(Locale.ROOT, "%.1f", (Double) v) : String.valueOf(v);
    }
}
