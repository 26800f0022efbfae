// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;
import org.junit.jupiter.api.Test;

/** The fenced mode's decisions through JNI, as in src/fencing.rs (DecisionsTest: the compat mode's). */
class FencedDecisionsTest {
    private static final ClusterStateMachine<State, Event> F =
            ClusterStateMachine.bind(State.class, Event.class, Profile.CLOUDSTACK_4_22, StateMode.FENCED);
    private static final Owner ME = new Owner(1, 10, 100);
    private static final Owner OTHER = new Owner(2, 20, 200);
    private static final long[] NO_LONGS = {};

    @Test
    void theFencedLimitsComeFromTheCore() {
        assertEquals((1L << 40) - 1, F.maxVersion());
        assertEquals(150_000, F.heartbeatThresholdMillis());
        assertEquals(4_000, F.withHeartbeatThreshold(4_000).heartbeatThresholdMillis());
        assertEquals(StateMode.FENCED, F.withHeartbeatThreshold(4_000).mode());
        assertThrows(IllegalArgumentException.class, () -> F.withHeartbeatThreshold(-1));
        assertEquals(StateMode.FENCED, F.mode());
    }

    @Test
    void badInputNamesTheArgument() {
        IllegalArgumentException row = assertThrows(IllegalArgumentException.class,
                () -> F.entry(Operation.START, null, ME));
        assertTrue(row.getMessage().contains("row"), row.getMessage());
        IllegalArgumentException me = assertThrows(IllegalArgumentException.class,
                () -> F.entry(Operation.UPGRADE, ClusterRow.of(State.Running, 0, null), null));
        assertTrue(me.getMessage().contains("me"), me.getMessage());
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
                () -> F.entry(Operation.UPGRADE, ClusterRow.of(State.Running), ME));
        assertTrue(version.getMessage().contains("version"), version.getMessage());
    }

    @Test
    void entryTakesTheClusterWithTheNextVersion() {
        EntryDecision<State, Event> e = F.entry(Operation.UPGRADE, ClusterRow.of(State.Running, 4, null), ME);
        assertEquals(EntryDecision.Kind.TRANSITION, e.kind());
        assertEquals(new StateWrite<>(new Token<>(State.Running, 4), new Token<>(State.Upgrading, 5),
                Event.UpgradeRequested, ME), e.write());
        assertEquals(new Hold<>(new Token<>(State.Upgrading, 5), State.Upgrading), e.hold());
        // A proceed takes the cluster in its state.
        EntryDecision<State, Event> destroy = F.entry(Operation.DESTROY, ClusterRow.of(State.Destroying, 9, null), ME);
        assertEquals(new StateWrite<>(new Token<>(State.Destroying, 9), new Token<>(State.Destroying, 10), null, ME),
                destroy.write());
        assertEquals(EntryDecision.Kind.PROCEED, destroy.kind());
        assertNull(destroy.hold().movedTo());
        // Held: busy, naming the holder; also the table's Starting -> Stopping takeover.
        EntryDecision<State, Event> busy = F.entry(Operation.STOP, ClusterRow.of(State.Starting, 3, OTHER), ME);
        assertEquals(EntryDecision.Kind.BUSY, busy.kind());
        assertEquals(OTHER, busy.busyOwner());
        assertEquals(EntryDecision.Kind.NOTHING_TO_DO, F.entry(Operation.START, ClusterRow.of(State.Running, 1, OTHER), ME).kind());
        EntryDecision<State, Event> refused = F.entry(Operation.ADD_NODES, ClusterRow.of(State.Stopped, 1, null), ME);
        assertEquals(EntryDecision.Kind.REFUSE, refused.kind());
        assertTrue(refused.refusal().contains("Stopped"), refused.refusal());
    }

    @Test
    void completionExpectsTheEntrysTokenAndReleases() {
        Hold<State> hold = new Hold<>(new Token<>(State.Upgrading, 5), State.Upgrading);
        assertEquals(new StateWrite<>(new Token<>(State.Upgrading, 5), new Token<>(State.Running, 6),
                Event.OperationSucceeded, null), F.completion(hold, Outcome.SUCCEEDED));
        assertEquals(State.Alert, F.completion(hold, Outcome.FAILED).target().state());
        // A start that went ahead in Alert: CloudStack's Alert -OperationSucceeded-> Running; a failure
        // has no row from Alert and only releases the cluster.
        Hold<State> proceeded = new Hold<>(new Token<>(State.Alert, 2), null);
        assertEquals(new StateWrite<>(new Token<>(State.Alert, 2), new Token<>(State.Running, 3),
                Event.OperationSucceeded, null), F.completion(proceeded, Outcome.SUCCEEDED));
        assertEquals(new StateWrite<>(new Token<>(State.Alert, 2), new Token<>(State.Alert, 3), null, null),
                F.completion(proceeded, Outcome.FAILED));
    }

    @Test
    void aCreatedScaleHoldsTheClusterAgainstAStart() {
        ScaleOperation<State, Event> scale = F.beginScale(ScaleKind.SCALE_UP, new Token<>(State.Created, 0), ME);
        ScaleStep<State, Event> step = scale.nextStep(ClusterRow.of(State.Created, 0, null));
        assertEquals(ScaleStep.Kind.SETTINGS_ONLY, step.kind());
        assertNull(step.write().event());
        scale.markEntered();
        assertEquals(ScaleStep.Kind.SETTINGS_ONLY, scale.nextStep((ClusterRow<State>) null).kind());
        assertNull(scale.nextStep((ClusterRow<State>) null).write(), "held since its take: nothing more to write");
        ClusterRow<State> held = new ClusterRow<>(step.write().target(), ME);
        assertEquals(EntryDecision.Kind.BUSY, F.entry(Operation.START, held, OTHER).kind());
        assertEquals(new Token<>(State.Created, 2), scale.completion(Outcome.SUCCEEDED).target());
        ScaleOperation<State, Event> late = F.beginScale(ScaleKind.SCALE_UP, new Token<>(State.Created, 0), ME);
        ScaleStep<State, Event> taken = late.nextStep(ClusterRow.of(State.Starting, 1, OTHER));
        assertEquals(ScaleStep.Kind.FAIL_TAKEN_SINCE, taken.kind());
        assertTrue(taken.message().contains("Starting"), taken.message());
        ScaleOperation<State, Event> running = F.beginScale(ScaleKind.SCALE_DOWN, new Token<>(State.Running, 3), ME);
        ScaleStep<State, Event> enter = running.nextStep(ClusterRow.of(State.Running, 3, null));
        assertEquals(new Token<>(State.Scaling, 4), enter.write().target());
        running.markEntered();
        assertTrue(running.movedCluster());
        assertNull(F.beginScale(ScaleKind.SCALE_UP, new Token<>(State.Running, 3), ME).completion(Outcome.SUCCEEDED));
    }

    @Test
    void reconcileHoldsBetweenItsStepsAndLeavesHeldRows() {
        Owner scanner = Owner.of(9, 90);
        List<StateWrite<State, Event>> steps = F.planReconcile(ClusterRow.of(State.Alert, 7, null), VmSummary.ALL_STOPPED,
                scanner).steps();
        assertEquals(List.of(
                new StateWrite<>(new Token<>(State.Alert, 7), new Token<>(State.Stopping, 8), Event.StopRequested,
                        scanner),
                new StateWrite<>(new Token<>(State.Stopping, 8), new Token<>(State.Stopped, 9),
                        Event.OperationSucceeded, null)), steps);
        assertTrue(F.planReconcile(ClusterRow.of(State.Alert, 7, ME), VmSummary.ALL_STOPPED, scanner).steps().isEmpty());
    }

    @Test
    void recoveryOnlyWhenTheOwnerIsProvablyGone() {
        Owner down = new Owner(1, 1, 11);
        Owner restarted = new Owner(2, 1, 12);
        Owner stale = new Owner(3, 1, 13);
        Owner alive = new Owner(4, 1, 14);
        Owner aliveJobGone = new Owner(5, 1, 15);
        Owner goneButJobRuns = new Owner(6, 1, 16);
        List<ClusterSnapshot<State>> candidates = List.of(
                new ClusterSnapshot<>(1, ClusterRow.of(State.Upgrading, 3, down)),
                new ClusterSnapshot<>(2, ClusterRow.of(State.Scaling, 3, restarted)),
                new ClusterSnapshot<>(3, ClusterRow.of(State.Alert, 3, stale)),
                new ClusterSnapshot<>(4, ClusterRow.of(State.Upgrading, 3, alive)),
                new ClusterSnapshot<>(5, ClusterRow.of(State.Upgrading, 3, aliveJobGone)),
                new ClusterSnapshot<>(6, ClusterRow.of(State.Upgrading, 3, goneButJobRuns)),
                new ClusterSnapshot<>(7, ClusterRow.of(State.Stopping, 3, null)));
        long[] jobIds = {14, 16};
        long[] jobClusters = {4, -1}; // 16: unknown cluster
        List<MsHost> hosts = List.of(new MsHost(1, 1, MsHost.Status.DOWN, 0), new MsHost(2, 2, MsHost.Status.UP, 1),
                new MsHost(3, 1, MsHost.Status.UP, 151), new MsHost(4, 1, MsHost.Status.UP, 1),
                new MsHost(5, 1, MsHost.Status.UP, 149), new MsHost(6, 1, MsHost.Status.DOWN, 0));
        List<ClusterRecovery<State, Event>> plan = F.planRecovery(candidates, jobIds, jobClusters, NO_LONGS, hosts)
                .recoveries();
        assertEquals(List.of(1L, 2L, 3L), plan.stream().map(ClusterRecovery::clusterId).toList(),
                "7 waits: an unknown job might be its");
        assertEquals(List.of(GoneReason.OWNER_DOWN, GoneReason.OWNER_RESTARTED, GoneReason.HEARTBEAT_STALE),
                plan.stream().map(ClusterRecovery::reason).toList());
        assertEquals(new StateWrite<>(new Token<>(State.Upgrading, 3), new Token<>(State.Alert, 4),
                Event.OperationFailed, null), plan.get(0).write());
        assertEquals(new StateWrite<>(new Token<>(State.Alert, 3), new Token<>(State.Alert, 4), null, null),
                plan.get(2).write(), "held at rest: only released");
        List<ClusterRecovery<State, Event>> noJobs = F.planRecovery(List.of(candidates.get(6)), NO_LONGS, NO_LONGS,
                NO_LONGS, List.of()).recoveries();
        assertEquals(GoneReason.NO_OWNER_NO_JOB, noJobs.get(0).reason());
    }

    @Test
    void theStateOnlyShortFormsRefuseFencedModeRatherThanWriteWithoutVersionOrOwner() {
        IllegalStateException completion = assertThrows(IllegalStateException.class,
                () -> F.completion(State.Upgrading, Outcome.SUCCEEDED));
        assertEquals("completion(S, Outcome) is compat mode's; in fenced mode use completion(Hold, Outcome)",
                completion.getMessage());
        assertThrows(IllegalStateException.class, () -> F.beginScale(ScaleKind.SCALE_UP, State.Running));
        assertThrows(IllegalStateException.class, () -> F.planReconcile(State.Alert, VmSummary.ALL_STOPPED));
        // Without the jobs' ids a fenced pass cannot tell an owner's live job from an ended one.
        IllegalStateException recovery = assertThrows(IllegalStateException.class,
                () -> F.planRecovery(List.of(new ClusterSnapshot<>(1, State.Scaling)), new long[] {1}));
        assertEquals("planRecovery(candidates, jobClusterIds) is compat mode's; in fenced mode use"
                + " planRecovery(candidates, jobIds, jobClusterIds)", recovery.getMessage());
        ClusterStateMachine<State, Event> compat = F.withMode(StateMode.COMPAT);
        assertEquals(State.Running, compat.completion(State.Upgrading, Outcome.SUCCEEDED).target().state());
        assertEquals(RecoveryPlan.Kind.RECOVER,
                compat.planRecovery(List.of(new ClusterSnapshot<>(1, State.Scaling)), new long[0]).kind());
    }
}
