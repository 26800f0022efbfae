// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.Profile;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * One seeded run of the deterministic simulation as {@code tests/sim/replay.rs} records it: the
 * host steps each actor took, what it found, its writes and the cluster rows after it (the format:
 * {@code src/test/resources/differential/README.md}).
 */
record ReplaySchedule(StateMode mode, Profile profile, long seed, List<Row> start, List<Line> lines) {

    /** A cluster row as recorded: state, version, owner (null: none). */
    record Row(State state, long version, Owner owner) {
        static Row parse(String field) {
            String[] p = field.split("/");
            return new Row(State.valueOf(p[0]), Long.parseLong(p[1]), ReplaySchedule.owner(p[2]));
        }
    }

    /** One recorded line, its number in the file for the failure message. */
    sealed interface Line permits Submit, ScannerStarts, ScannerEnds, Jobs, Hosts, Vms, Step {
        int number();
    }

    /** A request accepted: {@code scale} null for a plain operation, else {@code operation} null. */
    record Submit(int number, int op, int cluster, Operation operation, ScaleKind scale, Owner owner) implements Line {
    }

    record ScannerStarts(int number, Owner owner) implements Line {
    }

    /** The scanner's server ended mid-pass. */
    record ScannerEnds(int number) implements Line {
    }

    /** Every job row: id, cluster index (-1: unknown), status (0, 1, 2 as async_job has it), msid. */
    record Jobs(int number, List<long[]> jobs) implements Line {
    }

    /** Every mshost row: msid, runid, status name, heartbeat age in seconds. */
    record Hosts(int number, List<Host> hosts) implements Line {
    }

    record Host(long msid, long runid, String status, long ageSeconds) {
    }

    /** What the listing finds for each Alert or Running cluster (index to the core's VmSummary name). */
    record Vms(int number, List<String[]> vms) implements Line {
    }

    /**
     * One host step: {@code actor} is "scanner" or an operation's number; {@code next} what the
     * actor does after it; {@code writes} "h" or "m" per compare-and-set; {@code rows} null when
     * the step changed no row.
     */
    record Step(int number, String actor, String name, Outcome outcome, String next, List<String> writes,
            List<Row> rows, String text) implements Line {
        boolean isScanner() {
            return actor.equals("scanner");
        }

        int op() {
            return Integer.parseInt(actor.substring(2));
        }
    }

    /** Every schedule of a recorded file. */
    static List<ReplaySchedule> load(String resource) throws IOException {
        String text;
        try (InputStream in = ReplaySchedule.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is not on the test class path: run CKS_UPDATE_SCHEDULES=1 cargo test"
                        + " --test differential_schedules");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<ReplaySchedule> out = new ArrayList<>();
        String[] all = text.split("\n");
        ReplaySchedule current = null;
        for (int i = 0; i < all.length; i++) {
            String line = all[i];
            int number = i + 1;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] w = line.split(" ");
            if (w[0].equals("schedule")) {
                current = new ReplaySchedule(StateMode.valueOf(w[1].toUpperCase(java.util.Locale.ROOT)),
                        Profile.fromLabel(w[2]), Long.parseLong(w[3].substring("seed=".length())), new ArrayList<>(),
                        new ArrayList<>());
                out.add(current);
            } else if (current == null) {
                throw new IOException(resource + ":" + number + ": a line before the first schedule");
            } else if (w[0].equals("clusters")) {
                current.start.addAll(rows(w[1]));
            } else {
                current.lines.add(parse(number, line, w));
            }
        }
        return out;
    }

    private static Line parse(int number, String line, String[] w) {
        return switch (w[0]) {
            case "scanner" -> w[1].equals("ends") ? new ScannerEnds(number) : new ScannerStarts(number, owner(w[1]));
            case "jobs" -> new Jobs(number, items(w).stream().map(ReplaySchedule::job).toList());
            case "hosts" -> new Hosts(number, items(w).stream().map(h -> h.split(":"))
                    .map(h -> new Host(Long.parseLong(h[0]), Long.parseLong(h[1]), h[2], Long.parseLong(h[3]))).toList());
            case "vms" -> new Vms(number, items(w).stream().map(v -> v.split(":")).toList());
            case "step" -> step(number, line, w);
            default -> {
                if (!w[0].startsWith("op")) {
                    throw new IllegalArgumentException("line " + number + ": unknown line " + line);
                }
                String[] request = w[2].split(":");
                boolean scale = request[0].equals("scale");
                yield new Submit(number, Integer.parseInt(w[0].substring(2)), Integer.parseInt(w[1].substring(1)),
                        scale ? null : operation(request[1]), scale ? ScaleKind.valueOf(snake(request[1])) : null,
                        owner(w[3]));
            }
        };
    }

    private static Step step(int number, String line, String[] w) {
        // step <actor> <name> [<Outcome>] -> <next> writes=... [rows=...]
        int arrow = Arrays.asList(w).indexOf("->");
        Outcome outcome = arrow == 4 ? Outcome.valueOf(snake(w[3])) : null;
        String writes = w[arrow + 2].substring("writes=".length());
        List<Row> rows = w.length > arrow + 3 ? rows(w[arrow + 3].substring("rows=".length())) : null;
        return new Step(number, w[1], w[2], outcome, w[arrow + 1], writes.equals("-") ? List.of()
                : List.of(writes.split(",")), rows, line);
    }

    private static List<String> items(String[] w) {
        return w.length == 2 && w[1].equals("-") ? List.of() : Arrays.asList(w).subList(1, w.length);
    }

    private static long[] job(String field) {
        String[] j = field.split(":");
        int status = switch (j[2]) {
            case "I" -> 0;
            case "S" -> 1;
            case "F" -> 2;
            default -> throw new IllegalArgumentException("job status " + j[2]);
        };
        return new long[] {Long.parseLong(j[0]), j[1].equals("-") ? -1 : Long.parseLong(j[1]), status,
            Long.parseLong(j[3])};
    }

    private static List<Row> rows(String field) {
        return Arrays.stream(field.split(",")).map(Row::parse).toList();
    }

    /** {@code msid.runid.job}, job "-" for none; "-" alone for no owner. */
    static Owner owner(String field) {
        if (field.equals("-")) {
            return null;
        }
        String[] p = field.split("\\.");
        return p[2].equals("-") ? Owner.of(Long.parseLong(p[0]), Long.parseLong(p[1]))
                : new Owner(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]));
    }

    private static Operation operation(String specName) {
        for (Operation o : Operation.values()) {
            if (o.specName().equals(specName)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown operation " + specName);
    }

    /** The core's CamelCase name as a Java constant: ScaleUp to SCALE_UP. */
    private static String snake(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT);
    }
}
