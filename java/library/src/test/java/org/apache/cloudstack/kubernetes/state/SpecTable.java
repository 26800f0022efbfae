// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The declarative table {@code spec/state-machine.tsv} and the JNI wire {@code jni/wire.tsv} (its
 * codes and layouts), parsed independently of the native build: the tests compare the library with
 * them. Paths from system properties {@code cks.spec.table} and {@code cks.spec.wire}, else the test
 * classpath copies {@code /spec/state-machine.tsv} and {@code /spec/wire.tsv}.
 */
final class SpecTable {
    /** One transition row; {@code tag}: which releases have it. */
    record Row(String from, String event, String to, String tag) {
    }

    final Map<Integer, String> states = new LinkedHashMap<>();
    final Map<Integer, String> events = new LinkedHashMap<>();
    final Map<Integer, String> operations = new LinkedHashMap<>();
    final Map<String, String> firstEvent = new LinkedHashMap<>();
    /** Profile name -> the row tags it includes. */
    final Map<String, List<String>> profileTags = new LinkedHashMap<>();
    final List<Row> rows = new ArrayList<>();
    final Set<String> proceed = new LinkedHashSet<>();
    final Set<String> nothing = new LinkedHashSet<>();
    final Set<String> orphans = new LinkedHashSet<>();
    /** "family.NAME" -> value, in file order. */
    final Map<String, Integer> codes = new LinkedHashMap<>();
    /** Packed-result fields in file order: {layout, name, shift, width}. */
    final List<String[]> fields = new ArrayList<>();

    private static SpecTable instance;

    static synchronized SpecTable get() {
        if (instance == null) {
            List<String> lines = new ArrayList<>(read("cks.spec.table", "state-machine.tsv"));
            lines.addAll(read("cks.spec.wire", "wire.tsv"));
            instance = new SpecTable(lines);
        }
        return instance;
    }

    /** The table's lines, from the path property or the classpath copy. */
    static List<String> read() {
        return read("cks.spec.table", "state-machine.tsv");
    }

    private static List<String> read(String property, String file) {
        try {
            String path = System.getProperty(property);
            if (path != null && Files.isRegularFile(Paths.get(path))) {
                return Files.readAllLines(Path.of(path), StandardCharsets.UTF_8);
            }
            try (InputStream in = SpecTable.class.getResourceAsStream("/spec/" + file)) {
                if (in == null) {
                    throw new IllegalStateException(file + " not found (" + property + "=" + path + ")");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private SpecTable(List<String> lines) {
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            switch (f[0]) {
                case "state":
                    states.put(Integer.parseInt(f[1]), f[2]);
                    break;
                case "event":
                    events.put(Integer.parseInt(f[1]), f[2]);
                    break;
                case "operation":
                    operations.put(Integer.parseInt(f[1]), f[2]);
                    firstEvent.put(f[2], f[3]);
                    break;
                case "profile":
                    profileTags.put(f[2], List.of(f[3].split(",")));
                    // A release line's profile (4.20.2) is CLOUDSTACK_4_20_2; another (alert-scaling) ALERT_SCALING.
                    codes.put("profile." + (Character.isDigit(f[2].charAt(0)) ? "CLOUDSTACK_" : "")
                            + f[2].replace('-', '_').replace('.', '_').toUpperCase(java.util.Locale.ROOT),
                            Integer.parseInt(f[1]));
                    break;
                case "transition":
                    rows.add(new Row(f[1], f[2], f[3], f[4]));
                    break;
                case "proceed":
                    proceed.add(f[1] + "/" + f[2]);
                    break;
                case "nothing":
                    nothing.add(f[1] + "/" + f[2]);
                    break;
                case "orphan":
                    orphans.add(f[1]);
                    break;
                case "field":
                    fields.add(new String[] {f[1], f[2], f[3], f[4]});
                    break;
                case "code":
                    codes.put(f[1] + "." + f[2], Integer.parseInt(f[3]));
                    break;
                default:
                    throw new IllegalStateException("unknown line kind in the table: " + line);
            }
        }
    }

    /** The rows of a profile: those whose tag the profile's row lists. */
    List<Row> rows(Profile profile) {
        List<String> tags = profileTags.get(profile.label());
        if (tags == null) {
            throw new IllegalStateException("the table has no profile " + profile.label());
        }
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            if (tags.contains(r.tag())) {
                out.add(r);
            }
        }
        return out;
    }

    /** The target of (from, event) in a profile, or null. */
    String next(Profile profile, String from, String event) {
        for (Row r : rows(profile)) {
            if (r.from().equals(from) && r.event().equals(event)) {
                return r.to();
            }
        }
        return null;
    }
}
