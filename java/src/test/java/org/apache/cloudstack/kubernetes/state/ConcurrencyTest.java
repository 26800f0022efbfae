package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.cloudstack.kubernetes.state.HostEnums.ReverseEvent;
import org.apache.cloudstack.kubernetes.state.HostEnums.ReverseState;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.Event;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.State;
import org.junit.jupiter.api.Test;

/** 8 threads calling every method concurrently give the same answers as one thread. */
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
                out.add("scale " + k + " " + s + " admission " + op.admission());
                for (S current : states) {
                    out.add("scale " + k + " " + s + " step " + current + " = " + op.nextStep(current));
                }
                ScaleStep<S, E> first = op.nextStep(s);
                if (first.kind() == ScaleStep.Kind.ENTER) {
                    op.markEntered();
                    out.add("scale entered " + op.enteredState() + " then " + op.nextStep(op.enteredState())
                            + " ok " + op.completion(true) + " fail " + op.completion(false));
                }
            }
            out.add("lookup " + s + " = " + m.needsJobLookup(List.of(s)));
        }
        List<ClusterSnapshot<S>> candidates = new ArrayList<>();
        for (int i = 0; i < states.length; i++) {
            candidates.add(new ClusterSnapshot<>(100 + i, states[i], i % 3 == 0 ? ClusterSnapshot.NO_VERSION : i));
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
}
