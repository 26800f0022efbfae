// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.function.Executable;

/** Bad input on every native method: the documented exception naming the argument, never a crash. */
@NativeTestHooks.Needed
class NativeBridgeBadInputTest {
    private static final int STATES = 15;
    private static final int EVENTS = 14;

    @BeforeAll
    static void load() {
        NativeLibrary.load();
    }

    private static void bad(String argument, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(argument),
                "message should name " + argument + ": " + e.getMessage());
    }

    @Test
    void names() {
        bad("kind", () -> NativeBridge.names(3));
        bad("kind", () -> NativeBridge.names(-1));
    }

    @Test
    void transitions() {
        bad("profile", () -> NativeBridge.transitions(Profile.values().length));
        bad("profile", () -> NativeBridge.transitions(-1));
    }

    @Test
    void nextState() {
        bad("profile", () -> NativeBridge.nextState(Profile.values().length, 0, 0));
        bad("state", () -> NativeBridge.nextState(0, STATES, 0));
        bad("state", () -> NativeBridge.nextState(0, -1, 0));
        bad("event", () -> NativeBridge.nextState(0, 0, EVENTS));
        bad("event", () -> NativeBridge.nextState(0, 0, Integer.MIN_VALUE));
    }

    @Test
    void upstreamWrite() {
        bad("profile", () -> NativeBridge.upstreamWrite(Profile.values().length, 0, 0));
        bad("state", () -> NativeBridge.upstreamWrite(0, STATES, 0));
        bad("state", () -> NativeBridge.upstreamWrite(0, -1, 0));
        bad("event", () -> NativeBridge.upstreamWrite(0, 0, EVENTS));
    }

    @Test
    void decideEntryAndRefusalReasons() {
        bad("profile", () -> NativeBridge.decideEntry(-1, 0, 0));
        bad("operation", () -> NativeBridge.decideEntry(0, 9, 0));
        bad("state", () -> NativeBridge.decideEntry(0, 0, 255));
        bad("operation", () -> NativeBridge.refusalReason(-1, 0));
        bad("state", () -> NativeBridge.refusalReason(0, STATES));
        bad("scaleKind", () -> NativeBridge.scaleMessage(4, 0, -1));
        bad("startedState", () -> NativeBridge.scaleMessage(0, -2, -1));
        bad("nowState", () -> NativeBridge.scaleMessage(0, 0, STATES));
    }

    private static final int COMPAT = NativeCodes.MODE_COMPAT;
    private static final int FENCED = NativeCodes.MODE_FENCED;
    private static final long[] NO_LONGS = {};

    /** The mode argument itself, on every decision that takes one. */
    @Test
    void mode() {
        bad("mode", () -> NativeBridge.entry(2, 0, 5, 2, 0, false));
        bad("mode", () -> NativeBridge.completion(-1, 0, 7, 5, 7, 0));
        bad("mode", () -> NativeBridge.scaleStep(9, 0, 0, 2, 1, -1, 0, -1, 2, 1, false));
        bad("mode", () -> NativeBridge.reconcile(3, 0, 10, 3, false, 0));
        bad("mode", () -> recovery(5, SCALING_FREE, NO_LONGS, NO_LONGS, null, null));
    }

    /** What both modes check the same way. */
    @ParameterizedTest(name = "mode {0}")
    @ValueSource(ints = {COMPAT, FENCED})
    void entryCompletionScalingAndReconcile(int mode) {
        bad("profile", () -> NativeBridge.entry(mode, Profile.values().length, 5, 2, 0, false));
        bad("operation", () -> NativeBridge.entry(mode, 0, 99, 2, 1, false));
        bad("state", () -> NativeBridge.entry(mode, 0, 5, STATES, 1, false));
        bad("profile", () -> NativeBridge.completion(mode, Profile.values().length, 5, 0, 5, 0));
        bad("movedTo", () -> NativeBridge.completion(mode, 0, 7, 5, 77, 0));
        bad("outcome", () -> NativeBridge.completion(mode, 0, 5, 0, 5, 3));
        bad("holdState", () -> NativeBridge.completion(mode, 0, STATES, 0, 5, 0));
        bad("profile", () -> NativeBridge.scaleStep(mode, Profile.values().length, 0, 2, 1, -1, 0, -1, 2, 1, false));
        bad("scaleKind", () -> NativeBridge.scaleStep(mode, 0, 4, 2, 1, -1, 0, -1, 2, 1, false));
        bad("startedState", () -> NativeBridge.scaleStep(mode, 0, 0, -1, 1, -1, 0, -1, 2, 1, false));
        bad("currentState", () -> NativeBridge.scaleStep(mode, 0, 0, 2, 1, -1, 0, -1, 99, 1, false));
        bad("holdMovedTo", () -> NativeBridge.scaleStep(mode, 0, 0, 2, 1, 5, 2, 99, 5, 2, true));
        bad("profile", () -> NativeBridge.reconcile(mode, Profile.values().length, 10, 3, false, 0));
        bad("listedState", () -> NativeBridge.reconcile(mode, 0, STATES, 3, false, 0));
        bad("vmSummary", () -> NativeBridge.reconcile(mode, 0, 10, 3, false, 4));
    }

    /** The VM rule's counts and health: each named, and counts that do not add up. */
    @Test
    void vmSummary() {
        bad("listedState", () -> NativeBridge.vmSummary(STATES, 3, 3, 3, 3, 0, 0));
        bad("expected", () -> NativeBridge.vmSummary(10, -1, 3, 3, 3, 0, 0));
        bad("mapped", () -> NativeBridge.vmSummary(10, 3, -3, 3, 3, 0, 0));
        bad("present", () -> NativeBridge.vmSummary(10, 3, 3, Long.MIN_VALUE, 3, 0, 0));
        bad("running", () -> NativeBridge.vmSummary(10, 3, 3, 3, -1, 0, 0));
        bad("stopped", () -> NativeBridge.vmSummary(10, 3, 3, 3, 3, -1, 0));
        bad("health", () -> NativeBridge.vmSummary(10, 3, 3, 3, 3, 0, 3));
        bad("vmCounts", () -> NativeBridge.vmSummary(10, 3, 3, 4, 3, 0, 0));
        bad("vmCounts", () -> NativeBridge.vmSummary(10, 3, 3, 3, 3, 1, 0));
    }

    /** Only the fenced mode reads versions. */
    @Test
    void fencedVersions() {
        bad("version", () -> NativeBridge.entry(FENCED, 0, 5, 2, -1, false));
        long max = NativeBridge.constants()[0];
        bad("exhausted", () -> NativeBridge.entry(FENCED, 0, 5, 2, max, false));
        bad("is not a version", () -> NativeBridge.entry(FENCED, 0, 5, 2, max + 1, false));
        bad("currentVersion", () -> NativeBridge.scaleStep(FENCED, 0, 0, 2, 1, -1, 0, -1, 2, -5, false));
        bad("holdVersion", () -> NativeBridge.scaleStep(FENCED, 0, 0, 2, 1, 5, -3, 5, 2, 1, false));
        bad("startedVersion", () -> NativeBridge.scaleStep(FENCED, 0, 0, 2, -1, -1, 0, -1, 2, 1, false));
        bad("listedVersion", () -> NativeBridge.reconcile(FENCED, 0, 10, -1, false, 0));
        NativeBridge.entry(COMPAT, 0, 5, 2, -1, false); // compat reads no version
    }

    /** One fenced candidate row: id, state, version, owner msid, runid, job. */
    private static long[] candidate(long id, long state, long version, long msid, long runid, long job) {
        return new long[] {id, state, version, msid, runid, job};
    }

    /** A free candidate row in {@code mode}'s width (compat: id and state only). */
    private static long[] free(int mode, long id, long state) {
        long[] row = candidate(id, state, 0, -1, -1, -1);
        return mode == FENCED ? row : java.util.Arrays.copyOf(row, NativeCodes.CANDIDATE_WIDTH_COMPAT);
    }

    private static final long[] SCALING_FREE = candidate(1, 5, 0, -1, -1, -1);
    private static final long[] SCALING_HELD = candidate(1, 5, 4, 7, 1, 40);

    private static long[] recovery(int mode, long[] candidates, long[] jobIds, long[] jobClusterIds, long[] ended,
            long[] hosts) {
        return NativeBridge.planRecovery(mode, 0, 150_000, candidates, jobIds, jobClusterIds, ended, hosts);
    }

    @ParameterizedTest(name = "mode {0}")
    @ValueSource(ints = {COMPAT, FENCED})
    void planRecovery(int mode) {
        bad("candidates", () -> recovery(mode, null, NO_LONGS, NO_LONGS, null, null));
        bad("jobClusterIds", () -> recovery(mode, free(mode, 1, 5), NO_LONGS, null, null, null));
        bad("jobIds", () -> recovery(mode, free(mode, 1, 5), null, NO_LONGS, null, null));
        bad("is not a multiple of", () -> recovery(mode, new long[] {1, 5, 0}, NO_LONGS, NO_LONGS, null, null));
        bad("candidates[0]: unknown state code", () -> recovery(mode, free(mode, 1, STATES), NO_LONGS,
                NO_LONGS, null, null));
        bad("candidates[0]: unknown state code", () -> recovery(mode, free(mode, 1, 1L << 40), NO_LONGS,
                NO_LONGS, null, null));
        bad("candidates[1]", () -> recovery(mode, concat(free(mode, 1, 5), free(mode, -5, 5)), NO_LONGS,
                NO_LONGS, null, null));
        bad("jobClusterIds[0]", () -> recovery(mode, free(mode, 1, 5), new long[] {3}, new long[] {-2}, null, null));
    }

    /** The fenced pass also reads versions and owners, and the evidence once a candidate is held (compat never). */
    @Test
    void fencedRecoveryInputs() {
        bad("candidates[0]", () -> recovery(FENCED, candidate(1, 5, -1, -1, -1, -1), NO_LONGS, NO_LONGS, null, null));
        bad("candidates[0]", () -> recovery(FENCED, candidate(1, 5, 0, -7, -1, -1), NO_LONGS, NO_LONGS, null, null));
        bad("candidates[0]", () -> recovery(FENCED, candidate(1, 5, 0, 7, -1, -1), NO_LONGS, NO_LONGS, null, null));
        long[] compat = recovery(COMPAT, free(COMPAT, 1, 5), new long[] {3, 4}, new long[] {1}, null, null);
        assertEquals(NativeCodes.RECOVERY_RECOVER, compat[0], "compat reads neither job ids nor evidence");
        // A compat row has no fence fields: a fenced row reads as three compat rows, the second (-1, -7) refused.
        bad("candidates[1]", () -> recovery(COMPAT, candidate(1, 5, -1, -7, -1, -1), NO_LONGS, NO_LONGS, null, null));
        // Unheld: job ids and evidence are never read.
        assertEquals(NativeCodes.RECOVERY_RECOVER,
                recovery(FENCED, SCALING_FREE, new long[] {3, 4}, new long[] {9}, null, null)[0]);
        // Held: the job ids must match, and without evidence the core asks for it, naming the owner's job.
        bad("jobIds", () -> recovery(FENCED, SCALING_HELD, new long[] {3, 4}, new long[] {9}, null, null));
        bad("jobIds[0]", () -> recovery(FENCED, SCALING_HELD, new long[] {-3}, new long[] {9}, null, null));
        assertArrayEquals(new long[] {NativeCodes.RECOVERY_EVIDENCE, 1, 40},
                recovery(FENCED, SCALING_HELD, new long[] {3}, new long[] {9}, null, null));
        assertArrayEquals(new long[] {NativeCodes.RECOVERY_EVIDENCE, 1, 40},
                recovery(FENCED, SCALING_HELD, NO_LONGS, NO_LONGS, NO_LONGS, null));
        bad("endedJobIds[0]", () -> recovery(FENCED, SCALING_HELD, NO_LONGS, NO_LONGS, new long[] {-2}, NO_LONGS));
        bad("not a multiple of 4", () -> recovery(FENCED, SCALING_HELD, NO_LONGS, NO_LONGS, NO_LONGS,
                new long[] {7, 1, 0}));
        bad("hosts[0]: unknown host status code 9", () -> recovery(FENCED, SCALING_HELD, NO_LONGS, NO_LONGS, NO_LONGS,
                new long[] {7, 1, 9, 0}));
        bad("hosts[0]", () -> recovery(FENCED, SCALING_HELD, NO_LONGS, NO_LONGS, NO_LONGS, new long[] {7, 1, 0, -1}));
        bad("heartbeatThresholdMillis", () -> NativeBridge.planRecovery(FENCED, 0, -1, NO_LONGS, NO_LONGS, NO_LONGS,
                null, null));
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void aPanicBecomesOurExceptionWithItsMessage() {
        CksStateNativeException e = assertThrows(CksStateNativeException.class, () -> NativeTestHooks.forcePanic("boom {}"));
        assertTrue(e.getMessage().contains("boom {}"), e.getMessage());
        // The library stays usable after a panic.
        assertEquals(2, NativeBridge.nextState(0, 1, 10));
        CksStateNativeException again = assertThrows(CksStateNativeException.class,
                () -> NativeTestHooks.forcePanic("second {0} %s"));
        assertTrue(again.getMessage().contains("second {0} %s"), again.getMessage());
    }

    /** A native allocation the heap refuses is an OutOfMemoryError naming the argument; the JVM lives on. */
    @Test
    void aRefusedNativeAllocationIsAnOutOfMemoryError() {
        OutOfMemoryError e = assertThrows(OutOfMemoryError.class, () -> NativeTestHooks.allocate(Long.MAX_VALUE / 4));
        assertTrue(e.getMessage().contains("of hook"), e.getMessage());
        assertEquals(3, NativeTestHooks.allocate(3));
        assertThrows(IllegalArgumentException.class, () -> NativeTestHooks.allocate(-1));
        assertEquals(2, NativeBridge.nextState(0, 1, 10), "the library stays usable");
    }
}
