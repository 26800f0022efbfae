// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Junk at every native method: {@value #DEFAULT_CALLS} random calls per method by default (system
 * property {@value #CALLS_PROPERTY} for the long run of {@code make soak}) with unknown codes,
 * negative and huge values, nulls, mismatched and huge arrays, strings no one would send. Every
 * call must either answer (exactly when all its inputs are valid) or throw the documented
 * exception: {@link IllegalArgumentException} for bad input, {@link CksStateNativeException} for
 * {@code forcePanic}. Surefire runs it under -Xcheck:jni; {@code make test} then fails on any JNI
 * warning. The counts per method are printed ({@code JUNK ...} lines in the test output).
 */
@NativeTestHooks.Needed
class NativeJunkTest {
    static final String CALLS_PROPERTY = "cks.junk.calls";
    static final int DEFAULT_CALLS = 100_000;
    private static final int CALLS = Integer.getInteger(CALLS_PROPERTY, DEFAULT_CALLS);

    private static final int PROFILES = Profile.values().length;
    private static final int OPERATIONS = Operation.values().length;
    private static final int SCALE_KINDS = ScaleKind.values().length;
    private static final int OUTCOMES = Outcome.values().length;
    private static final int VM_SUMMARIES = VmSummary.values().length;
    private static final int NAME_KINDS = 3;
    /** The length of a "huge" array: a million elements, as many jobs as a large cloud has. */
    private static final int HUGE = 1 << 20;

    private static int states;
    private static int events;
    private static final Map<String, long[]> COUNTS = new LinkedHashMap<>();
    /** A huge scan: a hundred thousand candidate rows, a million jobs. */
    private static final int HUGE_CANDIDATES = 100_000;
    private static final long[] HUGE_ROWS = new long[HUGE_CANDIDATES * NativeCodes.CANDIDATE_WIDTH_COMPAT];
    private static final long[] HUGE_JOBS = new long[HUGE];

    @BeforeAll
    static void load() {
        NativeLibrary.load();
        states = NativeLibrary.stateNames().length;
        events = NativeLibrary.eventNames().length;
        for (int i = 0; i < HUGE; i++) {
            HUGE_JOBS[i] = i * 3L;
        }
        for (int i = 0; i < HUGE_CANDIDATES; i++) {
            candidateRow(HUGE_ROWS, i, i, i % states);
        }
    }

    @AfterAll
    static void report() {
        long total = 0;
        for (Map.Entry<String, long[]> e : COUNTS.entrySet()) {
            long[] c = e.getValue();
            total += c[0] + c[1] + c[2];
            System.out.printf("JUNK %-18s calls=%d answered=%d IllegalArgumentException=%d CksStateNativeException=%d%n",
                    e.getKey(), c[0] + c[1] + c[2], c[0], c[1], c[2]);
        }
        System.out.printf("JUNK total calls=%d other exceptions=0 JVM crashes=0%n", total);
    }


    /** Random inputs, biased to the edges of every range. */
    static final class Junk {
        final Random random;

        Junk(long seed) {
            random = new Random(seed);
        }

        int code(int n) {
            switch (random.nextInt(8)) {
                case 0:
                    return random.nextInt();
                case 1:
                    return new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, -2, n, n + 1, 255, 256, 0xFF00}[
                            random.nextInt(9)];
                case 2:
                case 3:
                    return random.nextInt(n + 4) - 2;
                default:
                    return random.nextInt(n);
            }
        }

        long id() {
            switch (random.nextInt(6)) {
                case 0:
                    return random.nextLong();
                case 1:
                    return new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1, -2, 0}[random.nextInt(5)];
                default:
                    return random.nextInt(64);
            }
        }

        int length() {
            return random.nextInt(10) == 0 ? random.nextInt(300) : random.nextInt(6);
        }

        boolean rare(int oneIn) {
            return random.nextInt(oneIn) == 0;
        }
    }

    private static boolean valid(int code, int n) {
        return code >= 0 && code < n;
    }

    private static boolean optional(int code, int n) {
        return code == -1 || valid(code, n);
    }

    /** Runs CALLS calls of one method; each call says whether its inputs were all valid. */
    private static void hammer(String method, long seed, CallWithJunk call) {
        Junk junk = new Junk(seed);
        long[] counts = COUNTS.computeIfAbsent(method, k -> new long[3]);
        for (int i = 0; i < CALLS; i++) {
            Boolean valid = null;
            try {
                valid = call.call(junk);
                if (!valid) {
                    fail(method + " call " + i + " (seed " + seed + ") answered invalid input instead of throwing");
                }
                counts[0]++;
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), method + ": IAE without message");
                counts[1]++;
            } catch (CksStateNativeException e) {
                assertEquals("forcePanic", method, method + " threw " + e);
                counts[2]++;
            } catch (Throwable t) { // anything else breaks the contract
                throw new AssertionError(method + " call " + i + " (seed " + seed + ") threw " + t, t);
            }
        }
    }

    @FunctionalInterface
    interface CallWithJunk {
        /** Makes one call; returns whether all its inputs were valid (then it must not throw). */
        boolean call(Junk junk);
    }

    /**
     * Makes a call whose inputs are {@code valid} or not: valid input must be answered (and the
     * answer pass its sanity check), invalid input must throw (checked by {@link #hammer}).
     */
    private static boolean expect(boolean valid, BooleanSupplier call) {
        boolean sane;
        try {
            sane = call.getAsBoolean();
        } catch (IllegalArgumentException e) {
            if (valid) {
                throw new AssertionError("valid input refused: " + e.getMessage(), e);
            }
            throw e;
        }
        assertTrue(sane, "the answer fails its sanity check");
        return valid;
    }

    private static boolean expectRun(boolean valid, Runnable call) {
        return expect(valid, () -> {
            call.run();
            return true;
        });
    }

    @Test
    void everyNativeMethodIsCoveredHere() {
        Set<String> natives = new TreeSet<>();
        for (Method m : NativeBridge.class.getDeclaredMethods()) {
            if (Modifier.isNative(m.getModifiers())) {
                natives.add(m.getName());
            }
        }
        for (Method m : NativeTestHooks.class.getDeclaredMethods()) {
            if (Modifier.isNative(m.getModifiers())) {
                natives.add(m.getName());
            }
        }
        Set<String> covered = new TreeSet<>(List.of("abiVersion", "noop", "names", "transitions", "orphanStates",
                "nextState", "decideEntry", "refusalReason", "scaleMessage", "planRecovery",
                "forcePanic", "constants", "pack", "vmSummary", "profileForRelease", "allocate", "upstreamWrite",
                "callCounts", "countedMethods"));
        covered.addAll(NativeModeJunkTest.COVERED);
        assertEquals(covered, natives, "a native method without junk: add it to this test or NativeModeJunkTest");
    }

    @Test
    void argumentFreeAndCheapMethods() {
        int[] orphans = NativeBridge.orphanStates();
        hammer("abiVersion", 1, j -> expect(true, () -> NativeBridge.abiVersion() == NativeBridge.ABI_VERSION));
        hammer("constants", 19, j -> expect(true, () -> NativeBridge.constants().length == 2));
        hammer("callCounts", 22, j -> expect(true,
                () -> NativeTestHooks.callCounts().length == NativeTestHooks.countedMethods().length));
        hammer("countedMethods", 23, j -> expect(true, () -> NativeTestHooks.countedMethods().length > 0));
        hammer("noop", 2, j -> {
            int x = j.random.nextInt();
            return expect(true, () -> NativeTestHooks.noop(x) == x + 1);
        });
        hammer("orphanStates", 3, j -> expect(true, () -> Arrays.equals(orphans, NativeBridge.orphanStates())));
        // Small counts allocate, negative ones are refused, and counts past what an address space holds
        // (2^61 longs and more) are an OutOfMemoryError; nothing in between, which a host might grant.
        hammer("allocate", 5, j -> {
            long count = switch (j.random.nextInt(3)) {
                case 0 -> j.random.nextInt(1 << 16);
                case 1 -> j.random.nextLong() | Long.MIN_VALUE;
                default -> (1L << 61) | (j.random.nextLong() >>> 3);
            };
            if (count >= 1L << 61) {
                try {
                    NativeTestHooks.allocate(count);
                    throw new AssertionError("an allocation of " + count + " longs succeeded");
                } catch (OutOfMemoryError e) {
                    return true;
                }
            }
            return expect(count >= 0, () -> NativeTestHooks.allocate(count) == count);
        });
    }

    @Test
    void namesAndTransitions() {
        String[][] names = new String[NAME_KINDS][];
        for (int k = 0; k < NAME_KINDS; k++) {
            names[k] = NativeBridge.names(k);
        }
        int[][] rows = new int[PROFILES][];
        for (int p = 0; p < PROFILES; p++) {
            rows[p] = NativeBridge.transitions(p);
        }
        hammer("names", 4, j -> {
            int kind = j.code(NAME_KINDS);
            return expect(valid(kind, NAME_KINDS), () -> {
                String[] got = NativeBridge.names(kind); // first: junk must reach the native side
                return Arrays.equals(names[kind], got);
            });
        });
        hammer("transitions", 5, j -> {
            int profile = j.code(PROFILES);
            return expect(valid(profile, PROFILES), () -> {
                int[] got = NativeBridge.transitions(profile);
                return Arrays.equals(rows[profile], got);
            });
        });
    }

    @Test
    void decisionsOnCodes() {
        hammer("nextState", 6, j -> {
            int p = j.code(PROFILES);
            int s = j.code(states);
            int e = j.code(events);
            return expect(valid(p, PROFILES) && valid(s, states) && valid(e, events), () -> {
                int next = NativeBridge.nextState(p, s, e);
                return next == -1 || valid(next, states);
            });
        });
        hammer("upstreamWrite", 24, j -> {
            int p = j.code(PROFILES);
            int s = j.code(states);
            int e = j.code(events);
            return expect(valid(p, PROFILES) && valid(s, states) && valid(e, events), () -> {
                int kind = NativeCodes.writeKind(NativeBridge.upstreamWrite(p, s, e));
                return kind == NativeCodes.UPDATE_WRITE || kind == NativeCodes.UPDATE_NO_ROW
                        || kind == NativeCodes.UPDATE_STAYS;
            });
        });
        hammer("decideEntry", 7, j -> {
            int p = j.code(PROFILES);
            int o = j.code(OPERATIONS);
            int s = j.code(states);
            return expect(valid(p, PROFILES) && valid(o, OPERATIONS) && valid(s, states),
                    () -> NativeCodes.writeKind(NativeBridge.decideEntry(p, o, s)) != NativeCodes.ENTRY_BUSY);
        });
        hammer("profileForRelease", 21, j -> {
            int[] r = {j.code(5), j.code(30), j.code(10), j.code(10)};
            boolean numbers = Arrays.stream(r).allMatch(v -> v >= 0 && v <= 65_535);
            return expect(numbers, () -> {
                long packed = NativeBridge.profileForRelease(r[0], r[1], r[2], r[3]);
                Profile.ofCode(NativeCodes.releaseProfile(packed));
                return ReleaseTable.Fit.ofCode(NativeCodes.releaseFit(packed)) != null;
            });
        });
        hammer("refusalReason", 8, j -> {
            int o = j.code(OPERATIONS);
            int s = j.code(states);
            return expect(valid(o, OPERATIONS) && valid(s, states), () -> !NativeBridge.refusalReason(o, s).isEmpty());
        });
        hammer("vmSummary", 20, j -> {
            int s = j.code(states);
            long[] n = {j.id(), j.id(), j.id(), j.id(), j.id()};
            int h = j.code(3);
            // expected, mapped, present, running, stopped: never negative, and they must add up.
            boolean counts = Arrays.stream(n).allMatch(v -> v >= 0) && n[2] <= n[1] && n[3] <= n[2] && n[4] <= n[2] - n[3];
            return expect(valid(s, states) && counts && valid(h, 3), () -> {
                int code = NativeBridge.vmSummary(s, n[0], n[1], n[2], n[3], n[4], h);
                return code == NativeCodes.VM_ANSWER_PROBE_HEALTH ? h == NativeCodes.HEALTH_UNPROBED
                        : VmSummary.ofCode(code) != null;
            });
        });
        hammer("scaleMessage", 9, j -> {
            int k = j.code(SCALE_KINDS);
            int s = j.code(states);
            int now = j.code(states);
            return expect(valid(k, SCALE_KINDS) && valid(s, states) && optional(now, states),
                    () -> !NativeBridge.scaleMessage(k, s, now).isEmpty());
        });
    }

    @Test
    void arrays() {
        hammer("planRecovery", 14, j -> {
            long[] rows;
            long[] jobs;
            boolean valid;
            if (j.rare(2000)) { // huge, and sometimes one element short of whole rows
                boolean shorter = j.random.nextBoolean();
                rows = shorter ? Arrays.copyOf(HUGE_ROWS, HUGE_ROWS.length - 1) : HUGE_ROWS;
                jobs = HUGE_JOBS;
                valid = !shorter;
            } else {
                int n = j.length();
                boolean whole = !j.rare(4);
                rows = j.rare(30) ? null : new long[n * NativeCodes.CANDIDATE_WIDTH_COMPAT - (whole || n == 0 ? 0 : 1)];
                jobs = j.rare(30) ? null : (j.rare(500) ? HUGE_JOBS : new long[j.length()]);
                boolean clean = !j.rare(3);
                valid = rows != null && jobs != null && (whole || n == 0);
                for (int i = 0; rows != null && i + NativeCodes.CANDIDATE_WIDTH_COMPAT <= rows.length;
                        i += NativeCodes.CANDIDATE_WIDTH_COMPAT) {
                    long id = clean ? j.random.nextInt(64) : j.id();
                    long state = clean ? j.random.nextInt(states) : j.code(states);
                    candidateRow(rows, i / NativeCodes.CANDIDATE_WIDTH_COMPAT, id, state);
                    valid &= id >= 0 && state >= 0 && state < states;
                }
                for (int i = 0; jobs != null && jobs != HUGE_JOBS && i < jobs.length; i++) {
                    jobs[i] = clean ? j.random.nextInt(66) - 1 : j.id();
                    valid &= jobs[i] >= -1;
                }
            }
            long[] jobIds = jobs == null ? new long[0] : new long[jobs.length];
            long[] candidates = rows;
            return expect(valid, () -> NativeModeJunkTest.wellFormed(NativeBridge.planRecovery(NativeCodes.MODE_COMPAT, 0,
                    150_000, candidates, jobIds, jobs, null, null)));
        });
    }

    /** Row {@code i} of a packed compat candidate array. */
    private static void candidateRow(long[] rows, int i, long id, long state) {
        int at = i * NativeCodes.CANDIDATE_WIDTH_COMPAT;
        rows[at + NativeCodes.CANDIDATE_ID] = id;
        rows[at + NativeCodes.CANDIDATE_STATE] = state;
    }

    @Test
    void panics() {
        StringBuilder big = new StringBuilder();
        while (big.length() < 1 << 20) {
            big.append("{}%s\u0000\uD83D\uDE00 ");
        }
        String[] odd = {"", "{}", "{0} %s %n", "\u0000", "\uD800", "\uDC00 unpaired", "\uD83D\uDE00", big.toString()};
        hammer("forcePanic", 17, j -> {
            String message;
            if (j.rare(20)) {
                message = null;
            } else if (j.rare(3)) {
                message = odd[j.random.nextInt(j.rare(1000) ? odd.length : odd.length - 1)];
            } else {
                char[] chars = new char[j.random.nextInt(40)];
                for (int i = 0; i < chars.length; i++) {
                    chars[i] = (char) j.random.nextInt(j.random.nextBoolean() ? 128 : 0x10000);
                }
                message = new String(chars);
            }
            try {
                NativeTestHooks.forcePanic(message);
            } catch (CksStateNativeException e) {
                assertTrue(e.getMessage().startsWith("cks-state native panic: "), e.getMessage());
                throw e;
            }
            return false; // never reached: forcePanic always throws
        });
        // Still answering after every kind of junk.
        assertEquals(2, NativeBridge.nextState(0, 1, 10));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"}) // foreign enum constants through a raw reference
    void publicApiWithNullsAndForeignEnums() {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
        ClusterStateMachine raw = m;
        Enum<?>[] foreign = {HostEnums.ReverseState.Running, HostEnums.ReverseEvent.StartRequested, Outcome.FAILED,
            Thread.State.RUNNABLE, null};
        hammer("publicApi", 18, j -> {
            boolean foreignState = j.random.nextBoolean();
            Enum<?> s = foreignState ? foreign[j.random.nextInt(foreign.length)] : State.values()[j.random.nextInt(
                    State.values().length)];
            Enum<?> e = j.random.nextBoolean() ? foreign[j.random.nextInt(foreign.length)]
                    : Event.values()[j.random.nextInt(Event.values().length)];
            boolean foreignEvent = !(e instanceof Event);
            switch (j.random.nextInt(6)) {
                case 0:
                    return expectRun(!foreignState && !foreignEvent, () -> raw.nextState(s, e));
                case 1:
                    Operation op = j.rare(5) ? null : Operation.values()[j.random.nextInt(OPERATIONS)];
                    return expectRun(!foreignState && op != null, () -> raw.decideEntry(op, s));
                case 2:
                    VmSummary vms = j.rare(5) ? null : VmSummary.values()[j.random.nextInt(VM_SUMMARIES)];
                    return expectRun(!foreignState && vms != null, () -> raw.planReconcile(s, vms));
                case 3:
                    ScaleKind kind = j.rare(5) ? null : ScaleKind.values()[j.random.nextInt(SCALE_KINDS)];
                    return expectRun(!foreignState && kind != null, () -> raw.beginScale(kind, s));
                case 4:
                    String name = j.rare(2) ? null : "NoSuchState" + j.random.nextInt(3);
                    return expectRun(false, () -> raw.state(name));
                default:
                    long[] jobs = j.rare(3) ? null : new long[] {j.id()};
                    return expectRun(jobs != null && jobs[0] >= -1, () -> m.planRecovery(
                            List.of(new ClusterSnapshot<>(j.random.nextInt(9), State.Scaling)), jobs));
            }
        });
    }
}
