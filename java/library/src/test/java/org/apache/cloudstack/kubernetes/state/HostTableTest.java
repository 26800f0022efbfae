// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.cloudstack.kubernetes.state.HostEnums.Event416;
import org.apache.cloudstack.kubernetes.state.HostEnums.State416;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Binding by the host's own table: the profile whose table it is, or a refusal naming the first difference. */
class HostTableTest {
    private final SpecTable spec = SpecTable.get();

    /** The host table of a profile's rows (from the file, not the library), with {@code change} applied last. */
    private <S extends Enum<S>, E extends Enum<E>> BiFunction<S, E, S> hostTable(Class<S> states, Class<E> events,
            Profile profile, String... change) {
        Map<String, String> next = new HashMap<>();
        for (SpecTable.Row r : spec.rows(profile)) {
            next.put(r.from() + "+" + r.event(), r.to());
        }
        for (int i = 0; i + 2 < change.length; i += 3) {
            next.put(change[i] + "+" + change[i + 1], change[i + 2]);
        }
        return (s, e) -> {
            String to = next.get(s.name() + "+" + e.name());
            return to == null ? null : constantOrNull(states, to);
        };
    }

    private static <S extends Enum<S>> S constantOrNull(Class<S> states, String name) {
        for (S s : states.getEnumConstants()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Profile.class)
    void aHostWithAProfilesTableBindsThatProfile(Profile profile) {
        for (StateMode mode : StateMode.values()) {
            ClusterStateMachine<State, Event> m = ClusterStateMachine.bindByTable(State.class, Event.class,
                    hostTable(State.class, Event.class, profile), mode);
            assertEquals(profile, m.profile());
            assertEquals(mode, m.mode());
        }
    }

    @Test
    void a420HostBindsThe420Table() {
        ClusterStateMachine<State416, Event416> m = ClusterStateMachine.bindByTable(State416.class, Event416.class,
                hostTable(State416.class, Event416.class, Profile.CLOUDSTACK_4_20_0), StateMode.COMPAT);
        assertEquals(Profile.CLOUDSTACK_4_20_0, m.profile());
        assertEquals(27, m.transitions().size());
        // A 4.20-named host with 4.22's rows on those names (Alert, Running, Stopped on success) is 4.22.
        assertEquals(Profile.CLOUDSTACK_4_22, ClusterStateMachine.bindByTable(State416.class, Event416.class,
                hostTable(State416.class, Event416.class, Profile.CLOUDSTACK_4_22), StateMode.COMPAT).profile());
        // With one of 4.20's rows missing it is neither: the closest is 4.20, one row apart.
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ClusterStateMachine.bindByTable(
                State416.class, Event416.class, hostTable(State416.class, Event416.class, Profile.CLOUDSTACK_4_20_0,
                        "Error", "DestroyRequested", "none"), StateMode.COMPAT));
        assertTrue(e.getMessage().contains("1 difference(s) from the closest, profile 4.20.0; the first: "
                + "Error + DestroyRequested: the host goes to none, cks-state to Destroying"), e.getMessage());
    }

    @Test
    void aHostTableOfNoProfileIsRefusedNamingTheFirstDifference() {
        // The library's table before it was CloudStack's: a failed add of nodes went to Alert.
        BiFunction<State, Event, State> host = hostTable(State.class, Event.class, Profile.CLOUDSTACK_4_22,
                "Importing", "OperationFailed", "Alert");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ClusterStateMachine.bindByTable(State.class, Event.class, host, StateMode.FENCED));
        assertEquals("the host's state machine (" + State.class.getName() + ") is no cks-state table: 1 difference(s)"
                + " from the closest, profile 4.22; the first: Importing + OperationFailed: the host goes to Alert,"
                + " cks-state to Running", e.getMessage());
        ClusterStateMachine<State, Event> upstream = ClusterStateMachine.bind(State.class, Event.class, Profile.CLOUDSTACK_4_22);
        assertEquals(List.of("Importing + OperationFailed: the host goes to Alert, cks-state to Running"),
                upstream.differencesFrom(host));
        assertEquals(List.of(), upstream.differencesFrom(hostTable(State.class, Event.class, Profile.CLOUDSTACK_4_22)));
        // A row the library lacks.
        assertEquals(List.of("Stopped + StopRequested: the host goes to Stopping, cks-state to none"),
                upstream.differencesFrom(hostTable(State.class, Event.class, Profile.CLOUDSTACK_4_22,
                        "Stopped", "StopRequested", "Stopping")));
    }

    @Test
    void aNullHostTableIsAnIllegalArgument() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterStateMachine.bindByTable(State.class, Event.class, null, StateMode.COMPAT));
        assertTrue(e.getMessage().contains("hostTable"), e.getMessage());
    }
}
