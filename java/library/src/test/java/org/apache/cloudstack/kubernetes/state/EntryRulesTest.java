// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The full entry-rule matrix (operations x states) through JNI against the file's rules. */
class EntryRulesTest {
    private final SpecTable spec = SpecTable.get();

    @ParameterizedTest
    @EnumSource(Profile.class)
    void everyOperationFromEveryState(Profile profile) {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class, profile);
        int checked = 0;
        for (Operation op : Operation.values()) {
            String event = spec.firstEvent.get(op.specName());
            assertNotNull(event, op.specName());
            for (State s : State.values()) {
                EntryDecision<State, Event> d = m.decideEntry(op, s);
                String where = op.specName() + " from " + s;
                String target = spec.next(profile, s.name(), event);
                String key = op.specName() + "/" + s.name();
                if (target != null) {
                    assertEquals(EntryDecision.Kind.TRANSITION, d.kind(), where);
                    assertEquals(new StateUpdate<>(s, Event.valueOf(event), State.valueOf(target)), d.update(), where);
                    assertNull(d.refusal(), where);
                } else if (spec.proceed.contains(key)) {
                    assertEquals(EntryDecision.Kind.PROCEED, d.kind(), where);
                    assertNull(d.update(), where);
                } else if (spec.nothing.contains(key)) {
                    assertEquals(EntryDecision.Kind.NOTHING_TO_DO, d.kind(), where);
                    assertNull(d.update(), where);
                } else {
                    assertEquals(EntryDecision.Kind.REFUSE, d.kind(), where);
                    assertNull(d.update(), where);
                    String why = d.refusal();
                    assertTrue(why.contains(op.specName()) && why.contains(s.name()), where + ": " + why);
                }
                checked++;
            }
        }
        assertEquals(Operation.values().length * State.values().length, checked);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void nativeBridgeAgreesForEveryCode(Profile profile) {
        NativeLibrary.load();
        for (var op : spec.operations.entrySet()) {
            for (var s : spec.states.entrySet()) {
                long packed = NativeBridge.decideEntry(profile.code(), op.getKey(), s.getKey());
                String target = spec.next(profile, s.getValue(), spec.firstEvent.get(op.getValue()));
                String key = op.getValue() + "/" + s.getValue();
                int kind = target != null ? NativeCodes.ENTRY_TRANSITION : spec.proceed.contains(key)
                        ? NativeCodes.ENTRY_PROCEED : spec.nothing.contains(key) ? NativeCodes.ENTRY_NOTHING_TO_DO
                        : NativeCodes.ENTRY_REFUSE;
                assertEquals(kind, NativeCodes.writeKind(packed), key);
                if (target != null) {
                    assertEquals(target, spec.states.get(NativeCodes.writeTarget(packed)), key);
                    assertEquals(spec.firstEvent.get(op.getValue()), spec.events.get(NativeCodes.writeEvent(packed)), key);
                }
            }
        }
    }
}
