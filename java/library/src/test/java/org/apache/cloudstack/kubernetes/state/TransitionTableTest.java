// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The transition table through JNI equals spec/state-machine.tsv, row by row, in both profiles. */
class TransitionTableTest {
    private final SpecTable spec = SpecTable.get();

    @ParameterizedTest
    @EnumSource(Profile.class)
    void transitionsEqualTheFileInOrder(Profile profile) {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class, profile);
        List<String> expected = new ArrayList<>();
        for (SpecTable.Row r : spec.rows(profile)) {
            expected.add(r.from() + "\t" + r.event() + "\t" + r.to());
        }
        List<String> actual = new ArrayList<>();
        for (StateUpdate<State, Event> u : m.transitions()) {
            actual.add(u.expected() + "\t" + u.event() + "\t" + u.target());
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected, actual);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void everyPairMatchesTheFile(Profile profile) {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class, profile);
        int rows = 0;
        for (State s : State.values()) {
            for (Event e : Event.values()) {
                String expected = spec.next(profile, s.name(), e.name());
                State actual = m.nextState(s, e);
                if (expected == null) {
                    assertNull(actual, s + " + " + e);
                } else {
                    assertEquals(expected, String.valueOf(actual), s + " + " + e);
                    rows++;
                }
            }
        }
        assertEquals(spec.rows(profile).size(), rows);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void nativeBridgeAgreesForEveryCodePair(Profile profile) {
        NativeLibrary.load();
        for (var s : spec.states.entrySet()) {
            for (var e : spec.events.entrySet()) {
                String expected = spec.next(profile, s.getValue(), e.getValue());
                int to = NativeBridge.nextState(profile.code(), s.getKey(), e.getKey());
                assertEquals(expected == null ? "-" : expected, to < 0 ? "-" : spec.states.get(to),
                        s.getValue() + " + " + e.getValue());
            }
        }
    }

    @org.junit.jupiter.api.Test
    void namesByCodeEqualTheFile() {
        NativeLibrary.load();
        assertEquals(List.copyOf(spec.states.values()), List.of(NativeBridge.names(NativeCodes.NAMES_STATES)));
        assertEquals(List.copyOf(spec.events.values()), List.of(NativeBridge.names(NativeCodes.NAMES_EVENTS)));
        assertEquals(List.copyOf(spec.operations.values()),
                List.of(NativeBridge.names(NativeCodes.NAMES_OPERATIONS)));
        List<String> ops = new ArrayList<>();
        for (Operation op : Operation.values()) {
            ops.add(op.specName());
        }
        assertEquals(List.copyOf(spec.operations.values()), ops);
    }

    @org.junit.jupiter.api.Test
    void theCodeTableEqualsTheFile() throws IllegalAccessException {
        java.util.Map<String, Integer> generated = new java.util.LinkedHashMap<>();
        for (java.lang.reflect.Field f : NativeCodes.class.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                generated.put(f.getName(), f.getInt(null));
            }
        }
        java.util.Map<String, Integer> expected = new java.util.LinkedHashMap<>();
        spec.codes.forEach((familyAndName, value) -> expected.put(
                familyAndName.replace('.', '_').toUpperCase(java.util.Locale.ROOT), value));
        assertEquals(expected, generated, "NativeCodes must be generated from jni/wire.tsv's code rows and the table's profiles");
        org.junit.jupiter.api.Assertions.assertFalse(expected.isEmpty());
    }

    @org.junit.jupiter.api.Test
    void referenceEnumsHoldExactlyTheFileNames() {
        assertEquals(spec.states.values().stream().sorted().toList(),
                java.util.Arrays.stream(State.values()).map(Enum::name).sorted().toList());
        assertEquals(spec.events.values().stream().sorted().toList(),
                java.util.Arrays.stream(Event.values()).map(Enum::name).sorted().toList());
    }
}
