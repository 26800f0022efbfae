// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.AddNodeRequested;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.AutoscaleRequested;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.CreateFailed;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.FaultsDetected;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.OperationFailed;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.OperationSucceeded;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.RecoveryRequested;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.ScaleUpRequested;
import static org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event.StopRequested;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.VmCounts;
import org.junit.jupiter.api.Test;

/** Every decision method on the upstream change's (apache/cloudstack PR #14609) scenarios. */
class DecisionsTest {
    private final ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
    private final ClusterStateMachine<State, Event> alertScaling =
            ClusterStateMachine.bind(State.class, Event.class, Profile.ALERT_SCALING);

    private static StateUpdate<State, Event> u(State from, Event by, State to) {
        return new StateUpdate<>(from, by, to);
    }

    // ---- entering an operation

    @Test
    void operationsInTheMiddleOfAnotherAreRefusedNotRunAlongside() {
        for (State busy : List.of(State.Scaling, State.Upgrading)) {
            for (Operation op : List.of(Operation.STOP, Operation.DESTROY)) {
                EntryDecision<State, Event> d = m.decideEntry(op, busy);
                assertEquals(EntryDecision.Kind.REFUSE, d.kind(), op + " from " + busy);
                assertTrue(d.refusal().contains(busy.name()), d.refusal());
            }
        }
        assertEquals(EntryDecision.Kind.REFUSE, m.decideEntry(Operation.ADD_NODES, State.Stopped).kind());
    }

    @Test
    void addingNodesEntersImportingFirst() {
        EntryDecision<State, Event> d = m.decideEntry(Operation.ADD_NODES, State.Running);
        assertEquals(EntryDecision.Kind.TRANSITION, d.kind());
        assertEquals(u(State.Running, AddNodeRequested, State.Importing), d.update());
        // CloudStack's table: a failed add of nodes goes back to Running.
        assertEquals(u(State.Importing, OperationFailed, State.Running), m.completion(State.Importing, Outcome.FAILED).update());
    }

    @Test
    void exemptionsAndAlreadyDone() {
        assertEquals(EntryDecision.Kind.PROCEED, m.decideEntry(Operation.START, State.Alert).kind());
        assertEquals(EntryDecision.Kind.PROCEED, m.decideEntry(Operation.START, State.Error).kind());
        assertEquals(EntryDecision.Kind.PROCEED, m.decideEntry(Operation.STOP, State.Created).kind());
        assertEquals(EntryDecision.Kind.PROCEED, m.decideEntry(Operation.DESTROY, State.Destroying).kind());
        assertEquals(EntryDecision.Kind.NOTHING_TO_DO, m.decideEntry(Operation.START, State.Running).kind());
        assertEquals(EntryDecision.Kind.NOTHING_TO_DO, m.decideEntry(Operation.STOP, State.Stopped).kind());
        // A stop can still take over a Starting cluster (left open upstream).
        assertEquals(u(State.Starting, StopRequested, State.Stopping), m.decideEntry(Operation.STOP, State.Starting).update());
        assertEquals(u(State.Alert, RecoveryRequested, State.Recovering), m.decideEntry(Operation.RECOVER, State.Alert).update());
        assertNull(m.decideEntry(Operation.START, State.Alert).refusal());
    }

    // ---- scaling

    @Test
    void scaleEntersScalingOnceAndCompletesWhatItMoved() {
        ScaleOperation<State, Event> op = m.beginScale(ScaleKind.SCALE_UP, State.Running);
        assertEquals(ScaleStep.Kind.ENTER, op.nextStep(op.startedFrom()).kind());
        assertFalse(op.movedCluster());
        ScaleStep<State, Event> first = op.nextStep(State.Running);
        assertEquals(ScaleStep.Kind.ENTER, first.kind());
        assertEquals(u(State.Running, ScaleUpRequested, State.Scaling), first.update());
        op.markEntered();
        assertTrue(op.movedCluster());
        assertEquals(State.Scaling, op.enteredState());
        for (int step = 0; step < 3; step++) {
            assertEquals(ScaleStep.Kind.ALREADY_ENTERED, op.nextStep(State.Scaling).kind());
        }
        assertEquals(u(State.Scaling, OperationSucceeded, State.Running), op.completion(Outcome.SUCCEEDED).update());
        // The newest release's table (4.23, the default binding): a failed scale rolls back to Running.
        assertEquals(u(State.Scaling, OperationFailed, State.Running), op.completion(Outcome.FAILED).update());
        assertEquals(ScaleKind.SCALE_UP, op.kind());
        assertEquals(State.Running, op.startedFrom());
    }

    @Test
    void aScaleThatLostTheRaceNeverFailsTheOtherOnesScaling() {
        ScaleOperation<State, Event> winner = m.beginScale(ScaleKind.SCALE_UP, State.Running);
        ScaleOperation<State, Event> loser = m.beginScale(ScaleKind.SCALE_DOWN, State.Running);
        winner.nextStep(State.Running);
        winner.markEntered();
        // The loser tries the same compare-and-set, which misses in the database: it never marks.
        assertEquals(ScaleStep.Kind.ENTER, loser.nextStep(State.Scaling).kind());
        assertNull(loser.completion(Outcome.FAILED));
        // A validation failure before entering leaves the state alone too.
        assertNull(m.beginScale(ScaleKind.AUTOSCALE, State.Running).completion(Outcome.FAILED));
    }

    @Test
    void aNeverStartedClusterOnlyChangesSettingsUnlessAStartTookIt() {
        ScaleOperation<State, Event> op = m.beginScale(ScaleKind.SCALE_UP, State.Created);
        assertEquals(ScaleStep.Kind.SETTINGS_ONLY, op.nextStep(op.startedFrom()).kind());
        assertEquals(ScaleStep.Kind.SETTINGS_ONLY, op.nextStep(State.Created).kind());
        ScaleStep<State, Event> taken = op.nextStep(State.Starting);
        assertEquals(ScaleStep.Kind.FAIL_TAKEN_SINCE, taken.kind());
        assertTrue(taken.message().contains("Starting"), taken.message());
        assertNull(taken.update());
        assertNull(op.completion(Outcome.FAILED));
        assertThrows(IllegalStateException.class, op::markEntered);
    }

    @Test
    void aStoppedClusterOnlyAcceptsAnOfferingChangeAndFailsToAlert() {
        ScaleOperation<State, Event> op = m.beginScale(ScaleKind.OFFERING_CHANGE, State.Stopped);
        ScaleStep<State, Event> enter = op.nextStep(State.Stopped);
        assertEquals(u(State.Stopped, ScaleUpRequested, State.ScalingStoppedCluster), enter.update());
        op.markEntered();
        assertEquals(u(State.ScalingStoppedCluster, OperationFailed, State.Alert), op.completion(Outcome.FAILED).update());
        assertEquals(u(State.ScalingStoppedCluster, OperationSucceeded, State.Stopped), op.completion(Outcome.SUCCEEDED).update());

        ScaleOperation<State, Event> size = m.beginScale(ScaleKind.SCALE_UP, State.Stopped);
        assertEquals(ScaleStep.Kind.REFUSE, size.nextStep(size.startedFrom()).kind());
        ScaleStep<State, Event> refused = size.nextStep(State.Stopped);
        assertEquals(ScaleStep.Kind.REFUSE, refused.kind());
        assertTrue(refused.message().contains("Stopped"), refused.message());
    }

    @Test
    void alertScalingProfileLetsAnAlertClusterScale() {
        assertEquals(ScaleStep.Kind.REFUSE, m.beginScale(ScaleKind.AUTOSCALE, State.Alert).nextStep(State.Alert).kind());
        ScaleOperation<State, Event> op = alertScaling.beginScale(ScaleKind.AUTOSCALE, State.Alert);
        assertEquals(u(State.Alert, AutoscaleRequested, State.Scaling), op.nextStep(op.startedFrom()).update());
        assertEquals(u(State.Alert, AutoscaleRequested, State.Scaling), op.nextStep(State.Alert).update());
        op.markEntered();
        assertEquals(u(State.Scaling, OperationFailed, State.Alert), op.completion(Outcome.FAILED).update());
    }

    // ---- completion

    @Test
    void completionOnlyFromTheStateTheOperationMovedTo() {
        assertNull(m.completion((State) null, Outcome.FAILED));
        assertNull(m.completion((State) null, Outcome.SUCCEEDED));
        assertEquals(u(State.Upgrading, OperationFailed, State.Alert), m.completion(State.Upgrading, Outcome.FAILED).update());
        assertEquals(u(State.Starting, CreateFailed, State.Error), m.completion(State.Starting, Outcome.CREATE_FAILED).update());
        assertEquals(u(State.Destroying, OperationSucceeded, State.Destroyed),
                m.completion(State.Destroying, Outcome.SUCCEEDED).update());
        assertNull(m.completion(State.Destroying, Outcome.FAILED)); // no such exit
        assertNull(m.completion(State.Running, Outcome.FAILED));
    }

    // ---- status scanner

    @Test
    void orphanStatesAreTheFileOnes() {
        Set<String> names = m.orphanStates().stream().map(Enum::name).collect(Collectors.toSet());
        assertEquals(SpecTable.get().orphans, names);
        assertThrows(UnsupportedOperationException.class, () -> m.orphanStates().add(State.Running));
    }

    @Test
    void noCandidateSkipsTheJobLookup() {
        assertEquals(RecoveryPlan.Kind.SKIP, m.planRecovery(List.of(), new long[] {1, -1}).kind());
        RecoveryPlan<State, Event> plan = m.planRecovery(
                List.of(new ClusterSnapshot<>(1, State.Running), new ClusterSnapshot<>(2, State.Alert)), new long[0]);
        assertEquals(RecoveryPlan.Kind.SKIP, plan.kind());
        assertTrue(plan.recoveries().isEmpty());
    }

    @Test
    void aJobOfAnUnknownClusterMakesThePassWait() {
        RecoveryPlan<State, Event> plan = m.planRecovery(
                List.of(new ClusterSnapshot<>(7, State.Scaling)), new long[] {12, -1});
        assertEquals(RecoveryPlan.Kind.WAIT, plan.kind());
        assertTrue(plan.recoveries().isEmpty());
    }

    @Test
    void onlyOperationsWithoutAJobAreFailedStartingIncluded() {
        RecoveryPlan<State, Event> plan = m.planRecovery(List.of(
                new ClusterSnapshot<>(1, State.Upgrading),
                new ClusterSnapshot<>(2, State.Scaling),
                new ClusterSnapshot<>(3, State.Starting),
                new ClusterSnapshot<>(4, State.Running)), new long[] {2, 99});
        assertEquals(RecoveryPlan.Kind.RECOVER, plan.kind());
        assertEquals(List.of(
                new ClusterRecovery<>(1, StateWrite.of(u(State.Upgrading, OperationFailed, State.Alert)), GoneReason.NO_OWNER_NO_JOB),
                new ClusterRecovery<>(3, StateWrite.of(u(State.Starting, OperationFailed, State.Alert)), GoneReason.NO_OWNER_NO_JOB)),
                plan.recoveries());
        RecoveryPlan<State, Event> allBusy = m.planRecovery(
                List.of(new ClusterSnapshot<>(2, State.Scaling)), new long[] {2});
        assertEquals(RecoveryPlan.Kind.RECOVER, allBusy.kind());
        assertTrue(allBusy.recoveries().isEmpty());
    }

    @Test
    void alertReconciliationMovesTheClusterAsListed() {
        assertEquals(List.of(u(State.Alert, StopRequested, State.Stopping), u(State.Stopping, OperationSucceeded, State.Stopped)),
                m.planReconcile(State.Alert, VmSummary.ALL_STOPPED).steps().stream().map(StateWrite::update).toList());
        assertEquals(List.of(u(State.Alert, RecoveryRequested, State.Recovering),
                u(State.Recovering, OperationSucceeded, State.Running)),
                m.planReconcile(State.Alert, VmSummary.ALL_RUNNING_HEALTHY).steps().stream().map(StateWrite::update).toList());
        assertTrue(m.planReconcile(State.Alert, VmSummary.MIXED).isEmpty());
        assertEquals(List.of(u(State.Running, FaultsDetected, State.Alert)),
                m.planReconcile(State.Running, VmSummary.ALL_STOPPED).steps().stream().map(StateWrite::update).toList());
        // Never stops a cluster a user started since it was listed: Starting is not Alert.
        assertTrue(m.planReconcile(State.Starting, VmSummary.ALL_STOPPED).isEmpty());
    }

    @Test
    void theVmRuleProbesOnlyAnAlertClusterWhoseVmsAllRun() {
        int[] probes = {0};
        VmCounts allRunning = new VmCounts(3, 3, 3, 3, 0);
        assertEquals(VmSummary.ALL_RUNNING_HEALTHY, m.vmSummary(State.Alert, allRunning, () -> ++probes[0] > 0));
        assertEquals(VmSummary.MIXED, m.vmSummary(State.Alert, allRunning, () -> ++probes[0] < 0));
        assertEquals(2, probes[0]);
        assertEquals(VmSummary.ALL_RUNNING_HEALTHY, m.vmSummary(State.Running, allRunning, () -> ++probes[0] < 0));
        assertEquals(VmSummary.ALL_STOPPED, m.vmSummary(State.Alert, new VmCounts(3, 3, 3, 0, 3), () -> ++probes[0] > 0));
        assertEquals(VmSummary.MIXED, m.vmSummary(State.Running, new VmCounts(3, 3, 3, 2, 0), () -> ++probes[0] > 0));
        // A mapped VM gone (lost by hand: its row stays), or fewer rows on a Running cluster: short.
        assertEquals(VmSummary.INCOMPLETE, m.vmSummary(State.Alert, new VmCounts(3, 3, 2, 2, 0), () -> ++probes[0] > 0));
        assertEquals(VmSummary.INCOMPLETE, m.vmSummary(State.Running, new VmCounts(3, 2, 2, 2, 0), () -> ++probes[0] > 0));
        assertEquals(2, probes[0], "probed only for the Alert clusters whose VMs all run");
        // Fewer rows than nodes on Alert, every row a running VM (a scale down stopped before node_count): probed.
        assertEquals(VmSummary.ALL_RUNNING_HEALTHY, m.vmSummary(State.Alert, new VmCounts(3, 2, 2, 2, 0), () -> ++probes[0] > 0));
        assertEquals(3, probes[0]);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> m.vmSummary(State.Running, new VmCounts(3, 3, 3, 3, 1), () -> true));
        assertTrue(bad.getMessage().contains("vmCounts"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.vmSummary(null, allRunning, () -> true));
        assertThrows(IllegalArgumentException.class, () -> m.vmSummary(State.Alert, null, () -> true));
        assertThrows(IllegalArgumentException.class, () -> m.vmSummary(State.Alert, allRunning, null));
    }
}
