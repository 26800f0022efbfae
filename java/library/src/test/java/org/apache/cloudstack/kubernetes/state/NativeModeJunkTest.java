// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Junk at every native method of {@link NativeBridge} that takes a mode, once per mode, as
 * {@link NativeJunkTest} does for the others: {@value NativeJunkTest#DEFAULT_CALLS} calls per method by default
 * (system property {@value NativeJunkTest#CALLS_PROPERTY}), codes, versions (negative, 0,
 * {@code Long.MAX_VALUE} = exhausted), owners, nulls and mismatched arrays. Only
 * {@link IllegalArgumentException} may come out; clean input (valid codes, small versions,
 * consistent arrays) must be answered. Counts per method: {@code MODE-JUNK} lines.
 */
class NativeModeJunkTest {
    /** The native methods this test hammers in both modes. */
    static final Set<String> COVERED = Set.of("entry", "completion", "scaleStep", "reconcile", "planRecovery",
            "writeShapeError");

    private static final int CALLS = Integer.getInteger(NativeJunkTest.CALLS_PROPERTY, NativeJunkTest.DEFAULT_CALLS);
    private static final Map<String, long[]> COUNTS = new LinkedHashMap<>();
    private static int states;
    private static int events;

    @BeforeAll
    static void load() {
        NativeLibrary.load();
        states = NativeLibrary.stateNames().length;
        events = NativeLibrary.eventNames().length;
    }

    @AfterAll
    static void report() {
        COUNTS.forEach((method, c) -> System.out.printf(
                "MODE-JUNK %-20s calls=%d answered=%d IllegalArgumentException=%d%n", method, c[0] + c[1], c[0], c[1]));
    }

    @FunctionalInterface
    interface Call {
        /** Makes one call; returns whether its input was clean (then it must be answered). */
        boolean call(NativeJunkTest.Junk junk);
    }

    private static void hammer(String method, long seed, Call call) {
        NativeJunkTest.Junk junk = new NativeJunkTest.Junk(seed);
        long[] counts = COUNTS.computeIfAbsent(method, k -> new long[2]);
        for (int i = 0; i < CALLS; i++) {
            try {
                call.call(junk);
                counts[0]++;
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), method + ": IAE without message");
                counts[1]++;
            } catch (Throwable t) {
                throw new AssertionError(method + " call " + i + " (seed " + seed + ") threw " + t, t);
            }
        }
    }

    private static int code(NativeJunkTest.Junk j, int n, boolean clean) {
        return clean ? j.random.nextInt(n) : j.code(n);
    }

    private static long version(NativeJunkTest.Junk j, boolean clean) {
        if (clean) {
            return j.random.nextInt(1000);
        }
        return new long[] {-1, 0, 1, Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE, j.random.nextLong()}[
                j.random.nextInt(7)];
    }

    /** Calls the method; when the input was clean, an IAE is a failure. */
    private static boolean answer(boolean clean, Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            if (clean) {
                throw new AssertionError("clean input refused: " + e.getMessage(), e);
            }
            throw e;
        }
        return clean;
    }

    /** The mode argument: the mode under test, or now and then any code. */
    private static int mode(NativeJunkTest.Junk j, StateMode mode, boolean clean) {
        return clean || j.random.nextBoolean() ? mode.code() : j.code(2);
    }

    /** A recovery plan's layout: [kind, n, n x 3]. */
    static boolean wellFormed(long[] plan) {
        if (plan.length >= 2 && plan[0] == NativeCodes.RECOVERY_EVIDENCE) {
            return plan.length == 2 + plan[1];
        }
        return plan.length >= 2 && plan.length == 2 + 3 * plan[1] && (plan[0] == NativeCodes.RECOVERY_SKIP
                || plan[0] == NativeCodes.RECOVERY_WAIT || plan[0] == NativeCodes.RECOVERY_RECOVER);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(StateMode.class)
    void scalarMethods(StateMode md) {
        hammer(md.label() + " entry", 32, j -> {
            boolean clean = j.random.nextBoolean();
            int m = mode(j, md, clean);
            int p = code(j, Profile.values().length, clean);
            int o = code(j, Operation.values().length, clean);
            int s = code(j, states, clean);
            long v = version(j, clean);
            boolean held = j.random.nextBoolean();
            return answer(clean, () -> NativeBridge.entry(m, p, o, s, v, held));
        });
        hammer(md.label() + " completion", 33, j -> {
            boolean clean = j.random.nextBoolean();
            int m = mode(j, md, clean);
            int p = code(j, Profile.values().length, clean);
            int s = code(j, states, clean);
            long v = version(j, clean);
            // A clean hold that moved the cluster holds it in the state it moved it to.
            int moved = clean ? (j.random.nextBoolean() ? -1 : s) : code(j, states, clean);
            int o = code(j, Outcome.values().length, clean);
            return answer(clean, () -> NativeBridge.completion(m, p, s, v, moved, o));
        });
        hammer(md.label() + " writeShapeError", 36, j -> {
            boolean clean = j.random.nextBoolean();
            int m = mode(j, md, clean);
            int p = code(j, Profile.values().length, clean);
            int from = code(j, states, clean);
            int to = code(j, states, clean);
            int e = clean && j.random.nextBoolean() ? NativeBridge.NONE : code(j, events, clean);
            long fromVersion = version(j, clean);
            long toVersion = j.random.nextBoolean() ? fromVersion + 1 : version(j, clean);
            boolean owner = j.random.nextBoolean();
            // Any non-negative versions are clean: the rule itself judges their range.
            boolean cleanVersions = fromVersion >= 0 && toVersion >= 0;
            return answer(clean && cleanVersions, () -> NativeBridge.writeShapeError(m, p, from, fromVersion, e, to,
                    toVersion, owner));
        });
        hammer(md.label() + " scaleStep", 34, j -> {
            boolean clean = j.random.nextBoolean();
            int m = mode(j, md, clean);
            int p = code(j, Profile.values().length, clean);
            int k = code(j, ScaleKind.values().length, clean);
            int from = code(j, states, clean);
            long fromVersion = version(j, clean);
            int hold = j.random.nextInt(3) == 0 ? code(j, states, clean) : NativeBridge.NONE;
            long holdVersion = version(j, clean);
            int holdMovedTo = !j.random.nextBoolean() ? NativeBridge.NONE : clean ? hold : code(j, states, clean);
            int current = code(j, states, clean);
            long currentVersion = version(j, clean);
            boolean held = j.random.nextBoolean();
            return answer(clean, () -> NativeBridge.scaleStep(m, p, k, from, fromVersion, hold, holdVersion,
                    holdMovedTo, current, currentVersion, held));
        });
        hammer(md.label() + " reconcile", 35, j -> {
            boolean clean = j.random.nextBoolean();
            int m = mode(j, md, clean);
            int p = code(j, Profile.values().length, clean);
            int s = code(j, states, clean);
            long v = version(j, clean);
            boolean held = j.random.nextBoolean();
            int vms = code(j, VmSummary.values().length, clean);
            return answer(clean, () -> NativeBridge.reconcile(m, p, s, v, held, vms));
        });
    }

    private static long[] longs(NativeJunkTest.Junk j, int n, boolean clean, long min, long max) {
        if (!clean && j.rare(25)) {
            return null;
        }
        long[] a = new long[!clean && j.rare(6) ? j.length() : n];
        for (int i = 0; i < a.length; i++) {
            a[i] = clean ? min + j.random.nextInt((int) (max - min + 1)) : j.id();
        }
        return a;
    }

    /** {@code n} packed rows of {@code stride} longs, field f in ranges[f] when clean; junk: null, torn, any value. */
    private static long[] rows(NativeJunkTest.Junk j, int n, boolean clean, int stride, long[][] ranges) {
        if (!clean && j.rare(25)) {
            return null;
        }
        long[] a = new long[n * stride + (!clean && j.rare(6) ? 1 + j.random.nextInt(stride - 1) : 0)];
        for (int i = 0; i < a.length; i++) {
            long[] r = ranges[i % stride];
            a[i] = clean ? r[0] + j.random.nextInt((int) (r[1] - r[0] + 1)) : j.id();
        }
        return a;
    }

    private static int[] ints(NativeJunkTest.Junk j, int n, boolean clean, int bound) {
        if (!clean && j.rare(25)) {
            return null;
        }
        int[] a = new int[!clean && j.rare(6) ? j.length() : n];
        for (int i = 0; i < a.length; i++) {
            a[i] = clean ? j.random.nextInt(bound) : j.code(bound);
        }
        return a;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(StateMode.class)
    void planRecovery(StateMode md) {
        hammer(md.label() + " planRecovery", 36, j -> {
            boolean clean = j.random.nextBoolean();
            int m = mode(j, md, clean);
            int p = code(j, Profile.values().length, clean);
            int n = j.length();
            int jobs = j.length();
            int hosts = j.random.nextInt(5);
            // id, state, version, owner msid, runid, job: each field's clean range.
            long[][] candidateRanges = {{0, 50}, {0, states - 1}, {0, 900}, {-1, 3}, {0, 3}, {-1, 20}};
            int width = md == StateMode.FENCED ? NativeCodes.CANDIDATE_WIDTH_FENCED : NativeCodes.CANDIDATE_WIDTH_COMPAT;
            long[] candidates = rows(j, n, clean, width, candidateRanges);
            long[] jobIds = longs(j, jobs, clean, 0, 20);
            long[] jobClusters = longs(j, jobs, clean, -1, 50);
            long[][] hostRanges = {{0, 3}, {0, 3}, {0, 2}, {0, 400}}; // msid, runid, status, age
            long[] hostRows = rows(j, hosts, clean, NativeCodes.HOST_ROW_LENGTH, hostRanges);
            boolean evidence = j.random.nextBoolean();
            return answer(clean, () -> {
                long[] plan = NativeBridge.planRecovery(m, p, 150_000, candidates, jobIds, jobClusters,
                        evidence ? new long[0] : null, evidence ? hostRows : null);
                assertTrue(wellFormed(plan), "plan layout");
            });
        });
    }
}
