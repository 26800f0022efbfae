// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.EnumMap;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.junit.jupiter.api.Test;

/**
 * The hot methods allocate nothing (nextState) or only their result (decideEntry), and a rough
 * per-call cost next to a plain Java lookup (printed, not asserted: CI machines vary).
 */
@NativeTestHooks.Needed
class HotPathTest {
    private static final int CALLS = 200_000;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void nextStateAllocatesNothing() {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
        State[] states = State.values();
        Event[] events = Event.values();
        int sink = loop(m, states, events); // warm up, JIT
        long before = allocatedBytes();
        sink += loop(m, states, events);
        long allocated = allocatedBytes() - before;
        assertTrue(allocated < 4096, "nextState allocated " + allocated + " bytes over " + CALLS + " calls");
        assertTrue(sink > 0);
    }

    @Test
    void decideEntryAllocatesNothingWithoutATransition() {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
        for (int i = 0; i < CALLS; i++) {
            m.decideEntry(Operation.START, State.Alert);
        }
        long before = allocatedBytes();
        int proceed = 0;
        for (int i = 0; i < CALLS; i++) {
            proceed += m.decideEntry(i % 2 == 0 ? Operation.START : Operation.STOP, State.Error).kind().ordinal();
        }
        long allocated = allocatedBytes() - before;
        assertEquals(CALLS * EntryDecision.Kind.PROCEED.ordinal(), proceed);
        assertTrue(allocated < 4096, "decideEntry allocated " + allocated + " bytes over " + CALLS + " calls");
    }

    @Test
    void costNextToAPlainJavaLookup() {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
        Map<State, Map<Event, State>> table = new EnumMap<>(State.class);
        for (StateUpdate<State, Event> u : m.transitions()) {
            table.computeIfAbsent(u.expected(), k -> new EnumMap<>(Event.class)).put(u.event(), u.target());
        }
        State[] states = State.values();
        Event[] events = Event.values();
        for (int round = 0; round < 3; round++) {
            loop(m, states, events);
            javaLoop(table, states, events);
        }
        long t0 = System.nanoTime();
        int a = loop(m, states, events);
        long t1 = System.nanoTime();
        int b = javaLoop(table, states, events);
        long t2 = System.nanoTime();
        long n0 = System.nanoTime();
        int c = 0;
        for (int i = 0; i < CALLS; i++) {
            c += NativeTestHooks.noop(i) & 1;
        }
        long n1 = System.nanoTime();
        assertEquals(a, b);
        System.out.printf("nextState: %.1f ns/call through JNI, %.1f ns/call plain Java EnumMap, %.1f ns/call JNI noop (%d)%n",
                (t1 - t0) / (double) CALLS, (t2 - t1) / (double) CALLS, (n1 - n0) / (double) CALLS, c);
    }

    private static int loop(ClusterStateMachine<State, Event> m, State[] states, Event[] events) {
        int found = 0;
        for (int i = 0; i < CALLS; i++) {
            if (m.nextState(states[i % states.length], events[(i / states.length) % events.length]) != null) {
                found++;
            }
        }
        return found;
    }

    private static int javaLoop(Map<State, Map<Event, State>> table, State[] states, Event[] events) {
        int found = 0;
        for (int i = 0; i < CALLS; i++) {
            Map<Event, State> row = table.get(states[i % states.length]);
            if (row != null && row.get(events[(i / states.length) % events.length]) != null) {
                found++;
            }
        }
        return found;
    }
}
