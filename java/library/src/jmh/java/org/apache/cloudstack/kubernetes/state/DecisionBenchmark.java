// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The hot decisions, through JNI and in plain Java, against the raw no-op JNI call (the floor).
 * Inputs are random (state, event, operation) triples from a 64k array walked in order: the JIT
 * cannot fold them and the branch predictor cannot learn them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@org.openjdk.jmh.annotations.State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DecisionBenchmark {
    private static final int SIZE = 1 << 16;
    private static final int MASK = SIZE - 1;

    private ClusterStateMachine<State, Event> machine;
    private PureJava.StateMachine2Style<State, Event> stateMachine2;
    private PureJava.EnumMapTable<State, Event> enumMap;
    private PureJava.EntryRules<State, Event> javaEntry;

    private final State[] states = new State[SIZE];
    private final Event[] events = new Event[SIZE];
    private final Operation[] operations = new Operation[SIZE];
    private final int[] stateCodes = new int[SIZE];
    private final int[] eventCodes = new int[SIZE];
    private int profileCode;
    private int next;

    @Setup
    public void setUp() {
        machine = ClusterStateMachine.bind(State.class, Event.class);
        profileCode = machine.profile().code();
        stateMachine2 = new PureJava.StateMachine2Style<>(machine.transitions(), State.values());
        enumMap = new PureJava.EnumMapTable<>(machine.transitions(), State.class, Event.class);
        javaEntry = new PureJava.EntryRules<>(machine, enumMap);

        Map<String, Integer> eventCode = new HashMap<>();
        String[] eventNames = NativeLibrary.eventNames();
        for (int code = 0; code < eventNames.length; code++) {
            eventCode.put(eventNames[code], code);
        }
        SplittableRandom random = new SplittableRandom(42);
        State[] allStates = State.values();
        Event[] allEvents = Event.values();
        Operation[] allOperations = Operation.values();
        for (int i = 0; i < SIZE; i++) {
            states[i] = allStates[random.nextInt(allStates.length)];
            events[i] = allEvents[random.nextInt(allEvents.length)];
            operations[i] = allOperations[random.nextInt(allOperations.length)];
            stateCodes[i] = machine.stateCode(states[i], "state");
            eventCodes[i] = eventCode.get(events[i].name());
        }
        verifySameAnswers(allStates, allEvents, allOperations);
    }

    /** Every baseline must answer exactly what the library answers, or the comparison means nothing. */
    private void verifySameAnswers(State[] allStates, Event[] allEvents, Operation[] allOperations) {
        for (State s : allStates) {
            for (Event e : allEvents) {
                State expected = machine.nextState(s, e);
                if (stateMachine2.next(s, e) != expected || enumMap.next(s, e) != expected) {
                    throw new IllegalStateException("pure-Java table disagrees at " + s + " / " + e);
                }
            }
            for (Operation op : allOperations) {
                if (!javaEntry.decide(op, s).equals(machine.decideEntry(op, s))) {
                    throw new IllegalStateException("pure-Java entry rules disagree at " + op + " / " + s);
                }
            }
        }
    }

    private int index() {
        next = (next + 1) & MASK;
        return next;
    }

    /** The floor: static native, int in, int out, nothing done. */
    @Benchmark
    public int floorNoopJni() {
        return NativeTestHooks.noop(stateCodes[index()]);
    }

    @Benchmark
    public State nextStateJni() {
        int i = index();
        return machine.nextState(states[i], events[i]);
    }

    @Benchmark
    public int nextStateJniRaw() {
        int i = index();
        return NativeBridge.nextState(profileCode, stateCodes[i], eventCodes[i]);
    }

    @Benchmark
    public State nextStateJavaStateMachine2() {
        int i = index();
        return stateMachine2.next(states[i], events[i]);
    }

    @Benchmark
    public State nextStateJavaEnumMap() {
        int i = index();
        return enumMap.next(states[i], events[i]);
    }

    @Benchmark
    public EntryDecision<State, Event> entryJni() {
        int i = index();
        return machine.decideEntry(operations[i], states[i]);
    }

    @Benchmark
    public EntryDecision<State, Event> entryJava() {
        int i = index();
        return javaEntry.decide(operations[i], states[i]);
    }
}
