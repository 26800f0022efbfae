// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.cloudstack.kubernetes.state.HostEnums.ReverseEvent;
import org.apache.cloudstack.kubernetes.state.HostEnums.ReverseState;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.api.Test;

/**
 * 8 threads calling every public method, and 16 threads calling every native method for a
 * bounded time, give the same answers as one thread.
 */
@NativeTestHooks.Needed
class ConcurrencyTest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 20;

    /** Every public decision, as text, for one machine. */
    static <S extends Enum<S>, E extends Enum<E>> List<String> answers(ClusterStateMachine<S, E> m) {
        List<String> out = new ArrayList<>();
        S[] states = m.stateClass().getEnumConstants();
        for (S s : states) {
            for (E e : m.eventClass().getEnumConstants()) {
                out.add("next " + s + " " + e + " = " + m.nextState(s, e));
            }
            for (Operation op : Operation.values()) {
                EntryDecision<S, E> d = m.decideEntry(op, s);
                out.add("entry " + op + " " + s + " = " + d.kind() + " " + d.update() + " " + d.refusal());
            }
            for (Outcome o : Outcome.values()) {
                out.add("complete " + s + " " + o + " = " + m.completion(s, o));
            }
            for (VmSummary v : VmSummary.values()) {
                out.add("reconcile " + s + " " + v + " = " + m.planReconcile(s, v));
            }
            for (ScaleKind k : ScaleKind.values()) {
                ScaleOperation<S, E> op = m.beginScale(k, s);
                for (S current : states) {
                    out.add("scale " + k + " " + s + " step " + current + " = " + op.nextStep(current));
                }
                ScaleStep<S, E> first = op.nextStep(s);
                if (first.kind() == ScaleStep.Kind.ENTER) {
                    op.markEntered();
                    out.add("scale entered " + op.enteredState() + " then " + op.nextStep(op.enteredState())
                            + " ok " + op.completion(Outcome.SUCCEEDED) + " fail " + op.completion(Outcome.FAILED));
                }
            }
        }
        List<ClusterSnapshot<S>> candidates = new ArrayList<>();
        for (int i = 0; i < states.length; i++) {
            candidates.add(new ClusterSnapshot<>(100 + i, states[i]));
        }
        out.add("recover " + m.planRecovery(candidates, new long[] {101, 105}));
        out.add("recover none " + m.planRecovery(candidates, new long[0]));
        out.add("recover wait " + m.planRecovery(candidates, new long[] {-1}));
        out.add("orphans " + m.orphanStates());
        out.add("transitions " + m.transitions());
        return out;
    }

    @Test
    void eightThreadsAgreeWithOne() throws Exception {
        ClusterStateMachine<State, Event> upstream = ClusterStateMachine.bind(State.class, Event.class);
        ClusterStateMachine<ReverseState, ReverseEvent> reverse =
                ClusterStateMachine.bind(ReverseState.class, ReverseEvent.class, Profile.ALERT_SCALING);
        List<String> expectedUpstream = answers(upstream);
        List<String> expectedReverse = answers(reverse);
        assertTrue(expectedUpstream.size() > 1000);

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final boolean reversed = t % 2 == 1;
                results.add(pool.submit(() -> {
                    start.await();
                    int rounds = 0;
                    for (int r = 0; r < ROUNDS; r++) {
                        if (reversed) {
                            assertEquals(expectedReverse, answers(reverse));
                        } else {
                            assertEquals(expectedUpstream, answers(upstream));
                        }
                        // Binding concurrently with use must be harmless too.
                        ClusterStateMachine.bind(State.class, Event.class);
                        rounds++;
                    }
                    return rounds;
                }));
            }
            start.countDown();
            for (Future<Integer> f : results) {
                assertEquals(ROUNDS, f.get(5, TimeUnit.MINUTES));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every native method of NativeBridge with valid arguments (and some refused ones), as text. */
    static List<String> nativeAnswers(int states, int events) {
        List<String> out = new ArrayList<>();
        out.add("abi " + NativeBridge.abiVersion() + " noop " + NativeTestHooks.noop(41));
        for (int kind = 0; kind < 3; kind++) {
            out.add("names " + Arrays.toString(NativeBridge.names(kind)));
        }
        out.add("orphans " + Arrays.toString(NativeBridge.orphanStates()));
        for (int p = 0; p < 2; p++) {
            out.add("transitions " + Arrays.toString(NativeBridge.transitions(p)));
            for (int s = 0; s < states; s++) {
                for (int e = 0; e < events; e++) {
                    out.add("next " + NativeBridge.nextState(p, s, e));
                }
                for (int o = 0; o < Operation.values().length; o++) {
                    out.add("entry " + NativeBridge.decideEntry(p, o, s));
                }
                for (int mode : new int[] {NativeCodes.MODE_COMPAT, NativeCodes.MODE_FENCED}) {
                    for (int o = 0; o < Operation.values().length; o++) {
                        out.add("row entry " + NativeBridge.entry(mode, p, o, s, 3, (o + s) % 2 == 0));
                    }
                    for (int k = 0; k < ScaleKind.values().length; k++) {
                        for (int entered = -1; entered < states; entered += 4) {
                            out.add("step " + NativeBridge.scaleStep(mode, p, k, s, 3, entered < 0 ? -1 : entered, 4,
                                    entered, (s + entered + 2) % states, 3, entered % 2 == 0));
                        }
                    }
                    for (int o = 0; o < Outcome.values().length; o++) {
                        out.add("complete " + NativeBridge.completion(mode, p, s, 4, s, o) + " "
                                + NativeBridge.completion(mode, p, -1, 0, -1, o));
                    }
                    for (int v = 0; v < VmSummary.values().length; v++) {
                        out.add("reconcile " + java.util.Arrays.toString(NativeBridge.reconcile(mode, p, s, 2, v % 2 == 0, v)));
                    }
                }
            }
        }
        for (int s = 0; s < states; s++) {
            out.add("refusal " + NativeBridge.refusalReason(s % Operation.values().length, s)
                    + " | " + NativeBridge.scaleMessage(s % ScaleKind.values().length, s, s % 3 == 0 ? -1 : s));
        }
        for (int mode : new int[] {NativeCodes.MODE_COMPAT, NativeCodes.MODE_FENCED}) {
            int width = mode == NativeCodes.MODE_FENCED ? NativeCodes.CANDIDATE_WIDTH_FENCED
                    : NativeCodes.CANDIDATE_WIDTH_COMPAT;
            long[] rows = new long[states * width];
            for (int i = 0; i < states; i++) {
                rows[i * width + NativeCodes.CANDIDATE_ID] = 100 + i;
                rows[i * width + NativeCodes.CANDIDATE_STATE] = i;
                if (width == NativeCodes.CANDIDATE_WIDTH_FENCED) {
                    rows[i * width + NativeCodes.CANDIDATE_OWNER_MSID] = -1;
                    rows[i * width + NativeCodes.CANDIDATE_OWNER_JOB] = -1;
                }
            }
            out.add("recover " + Arrays.toString(NativeBridge.planRecovery(mode, 0, 150_000, rows, new long[] {7, 8},
                    new long[] {101, 105}, null, null)));
            out.add("recover wait " + Arrays.toString(NativeBridge.planRecovery(mode, 0, 150_000, rows, new long[] {9},
                    new long[] {-1}, null, null)));
        }
        try {
            NativeBridge.nextState(0, states, 0);
            out.add("no refusal");
        } catch (IllegalArgumentException e) {
            out.add("refused " + e.getMessage());
        }
        try {
            NativeTestHooks.forcePanic("thread {}");
            out.add("no panic");
        } catch (CksStateNativeException e) {
            out.add("panic " + e.getMessage());
        }
        return out;
    }

    @Test
    void sixteenThreadsOnEveryNativeMethodAgreeWithOne() throws Exception {
        final int threads = 16;
        final long millis = Long.getLong("cks.concurrency.millis", 3000);
        NativeLibrary.load();
        int states = NativeLibrary.stateNames().length;
        int events = NativeLibrary.eventNames().length;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<String> expected = nativeAnswers(states, events);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    long end = System.nanoTime() + millis * 1_000_000L;
                    int rounds = 0;
                    do {
                        assertEquals(expected, nativeAnswers(states, events));
                        rounds++;
                    } while (System.nanoTime() < end);
                    return rounds;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get(5, TimeUnit.MINUTES);
            }
            System.out.printf("CONCURRENCY threads=%d millis=%d rounds=%d native calls/round=%d%n", threads, millis, total,
                    expected.size());
            assertTrue(total >= threads);
        } finally {
            pool.shutdownNow();
        }
    }
}
