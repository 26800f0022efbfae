// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.HostEnums.BodyState;
import org.apache.cloudstack.kubernetes.state.HostEnums.Event416;
import org.apache.cloudstack.kubernetes.state.HostEnums.ReverseEvent;
import org.apache.cloudstack.kubernetes.state.HostEnums.ReverseState;
import org.apache.cloudstack.kubernetes.state.HostEnums.State416;
import org.apache.cloudstack.kubernetes.state.HostEnums.UnknownState;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.junit.jupiter.api.Test;

/** Binding by constant name: any order, older releases' enums, unknown constants, several pairs. */
class BindingTest {
    private final SpecTable spec = SpecTable.get();

    @Test
    void reverseOrderedEnumsGiveTheFileTable() {
        for (Profile profile : Profile.values()) {
            ClusterStateMachine<ReverseState, ReverseEvent> m =
                    ClusterStateMachine.bind(ReverseState.class, ReverseEvent.class, profile);
            for (ReverseState s : ReverseState.values()) {
                for (ReverseEvent e : ReverseEvent.values()) {
                    String expected = spec.next(profile, s.name(), e.name());
                    ReverseState actual = m.nextState(s, e);
                    assertEquals(expected, actual == null ? null : actual.name(), profile + ": " + s + " + " + e);
                }
            }
            assertEquals(spec.rows(profile).size(), m.transitions().size());
        }
    }

    @Test
    void cloudStack416EnumsBindAndNeverReachTheMissingNames() {
        ClusterStateMachine<State416, Event416> m = ClusterStateMachine.bind(State416.class, Event416.class);
        assertEquals(Profile.newestRelease(), m.profile());
        int reachable = 0;
        for (SpecTable.Row r : spec.rows(m.profile())) {
            boolean expressible = has(State416.class, r.from()) && has(Event416.class, r.event())
                    && has(State416.class, r.to());
            if (expressible) {
                reachable++;
                assertEquals(State416.valueOf(r.to()),
                        m.nextState(State416.valueOf(r.from()), Event416.valueOf(r.event())), r.toString());
            }
        }
        assertEquals(reachable, m.transitions().size());
        // Stopped + ScaleUpRequested -> ScalingStoppedCluster does not exist for this host.
        assertNull(m.nextState(State416.Stopped, Event416.ScaleUpRequested));
        assertEquals(State416.Scaling, m.nextState(State416.Running, Event416.ScaleUpRequested));
        for (StateUpdate<State416, Event416> u : m.transitions()) {
            assertTrue(u.target() != null && u.expected() != null && u.event() != null);
        }
        // The orphan set holds only what the host has.
        assertEquals(Set.of(State416.Starting, State416.Stopping, State416.Scaling, State416.Upgrading,
                State416.Recovering), m.orphanStates());
    }

    @Test
    void cloudStack416RefusesWhatItCannotExpress() {
        ClusterStateMachine<State416, Event416> m = ClusterStateMachine.bind(State416.class, Event416.class);
        EntryDecision<State416, Event416> add = m.decideEntry(Operation.ADD_NODES, State416.Running);
        assertEquals(EntryDecision.Kind.REFUSE, add.kind());
        assertTrue(add.refusal().contains("AddNodeRequested"), add.refusal());
        ScaleOperation<State416, Event416> scale = m.beginScale(ScaleKind.OFFERING_CHANGE, State416.Stopped);
        assertEquals(ScaleStep.Kind.REFUSE, scale.nextStep(State416.Stopped).kind());
        assertEquals(ScaleStep.Kind.REFUSE, scale.nextStep(State416.Stopped).kind());
        assertEquals(EntryDecision.Kind.TRANSITION, m.decideEntry(Operation.SCALE, State416.Running).kind());
    }

    @Test
    void unknownConstantIsABindErrorNamingItAndItsClass() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterStateMachine.bind(UnknownState.class, Event.class));
        assertTrue(e.getMessage().contains("Hibernating"), e.getMessage());
        assertTrue(e.getMessage().contains(UnknownState.class.getName()), e.getMessage());
    }

    @Test
    void anEventEnumPassedAsStatesIsABindError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterStateMachine.bind(Event.class, Event.class));
        assertTrue(e.getMessage().contains("StartRequested"), e.getMessage());
    }

    @Test
    void twoEnumPairsInOneJvmStayApart() {
        ClusterStateMachine<State, Event> newest = ClusterStateMachine.bind(State.class, Event.class);
        ClusterStateMachine<ReverseState, ReverseEvent> reverse =
                ClusterStateMachine.bind(ReverseState.class, ReverseEvent.class, Profile.ALERT_SCALING);
        ClusterStateMachine<State416, Event416> old = ClusterStateMachine.bind(State416.class, Event416.class);
        for (int round = 0; round < 3; round++) {
            assertSame(State.Starting, newest.nextState(State.Created, Event.StartRequested));
            assertSame(ReverseState.Starting, reverse.nextState(ReverseState.Created, ReverseEvent.StartRequested));
            assertSame(State416.Starting, old.nextState(State416.Created, Event416.StartRequested));
            assertNull(newest.nextState(State.Alert, Event.ScaleUpRequested));
            assertSame(ReverseState.Scaling, reverse.nextState(ReverseState.Alert, ReverseEvent.ScaleUpRequested));
        }
        assertSame(State.class, newest.stateClass());
        assertSame(ReverseEvent.class, reverse.eventClass());
        assertEquals(Profile.ALERT_SCALING, reverse.profile());
    }

    @Test
    void constantsWithBodiesBind() {
        ClusterStateMachine<BodyState, Event> m = ClusterStateMachine.bind(BodyState.class, Event.class);
        assertSame(BodyState.Starting, m.nextState(BodyState.Created, Event.StartRequested));
        assertEquals(EntryDecision.Kind.TRANSITION, m.decideEntry(Operation.START, BodyState.Created).kind());
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void foreignConstantsAndNullsAreRejectedNamingTheArgument() {
        ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
        ClusterStateMachine raw = m;
        assertMessage("from", () -> m.nextState(null, Event.StartRequested));
        assertMessage("event", () -> m.nextState(State.Created, null));
        assertMessage("from", () -> raw.nextState(ReverseState.Created, Event.StartRequested));
        assertMessage("event", () -> raw.nextState(State.Created, ReverseEvent.StartRequested));
        assertMessage("operation", () -> m.decideEntry(null, State.Created));
        assertMessage("current", () -> m.decideEntry(Operation.START, null));
        assertMessage("current", () -> raw.decideEntry(Operation.START, State416.Created));
        assertMessage("kind", () -> m.beginScale(null, State.Running));
        assertMessage("startedFrom", () -> m.beginScale(ScaleKind.SCALE_UP, null));
        assertMessage("outcome", () -> m.completion(State.Scaling, null));
        assertMessage("movedTo", () -> raw.completion(ReverseState.Scaling, Outcome.FAILED));
        List<ClusterSnapshot<State>> withNull = new ArrayList<>();
        withNull.add(new ClusterSnapshot<>(1, State.Running));
        withNull.add(null);
        assertMessage("candidates[1]", () -> m.planRecovery(withNull, new long[0]));
        assertMessage("candidates", () -> m.planRecovery(null, new long[0]));
        assertMessage("jobClusterIds", () -> m.planRecovery(List.of(), null));
        List<ClusterSnapshot<State>> nullCandidate = new ArrayList<>();
        nullCandidate.add(null);
        assertMessage("candidates[0]", () -> m.planRecovery(nullCandidate, new long[0]));
        assertMessage("candidates[0].state",
                () -> raw.planRecovery(List.of(new ClusterSnapshot<>(1, ReverseState.Scaling)), new long[0]));
        assertMessage("listed", () -> m.planReconcile(null, VmSummary.MIXED));
        assertMessage("vms", () -> m.planReconcile(State.Alert, null));
        assertMessage("name", () -> m.state(null));
        assertMessage("Hibernating", () -> m.state("Hibernating"));
        ScaleOperation<State, Event> op = m.beginScale(ScaleKind.SCALE_UP, State.Running);
        assertMessage("current", () -> op.nextStep((State) null));
        assertMessage("profile", () -> ClusterStateMachine.bind(State.class, Event.class, null));
        assertMessage("states", () -> ClusterStateMachine.bind(null, Event.class));
        assertMessage("events", () -> ClusterStateMachine.bind(State.class, null));
    }

    @Test
    void stateByDatabaseName() {
        ClusterStateMachine<ReverseState, ReverseEvent> m =
                ClusterStateMachine.bind(ReverseState.class, ReverseEvent.class);
        for (ReverseState s : ReverseState.values()) {
            assertSame(s, m.state(s.name()));
        }
        assertFalse(m.toString().isEmpty());
    }

    private static void assertMessage(String argument, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(argument),
                "message should name " + argument + ": " + e.getMessage());
    }

    private static boolean has(Class<? extends Enum<?>> type, String name) {
        for (Enum<?> c : type.getEnumConstants()) {
            if (c.name().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
