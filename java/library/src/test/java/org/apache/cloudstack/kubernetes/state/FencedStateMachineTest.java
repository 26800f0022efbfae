package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.Event;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.State;
import org.junit.jupiter.api.Test;

/** The fenced core through JNI: every native bound, bad input named, decisions as in src/fencing.rs. */
class FencedStateMachineTest {
    private static final FencedStateMachine<State, Event> F =
            FencedStateMachine.of(ClusterStateMachine.bind(State.class, Event.class));
    private static final Owner ME = new Owner(1, 10, 100);
    private static final Owner OTHER = new Owner(2, 20, 200);
    private static final long[] NO_LONGS = {};

    private static final Map<String, Object[]> ARGS = Map.of(
            "constants", new Object[] {},
            "entry", new Object[] {0, 5, 2, 4L, false},
            "completion", new Object[] {0, 7, 5L, 7, 0},
            "scaleStep", new Object[] {0, 0, 2, 1L, -1, 0L, -1, 2, 1L, false},
            "reconcile", new Object[] {0, 10, 3L, false, 0},
            "planRecovery", new Object[] {0, new long[] {1}, new int[] {5}, new long[] {0}, new long[] {-1},
                new long[] {-1}, new long[] {-1}, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, new int[0], NO_LONGS});

    @Test
    void everyNativeMethodIsBound() throws IllegalAccessException {
        List<String> invoked = new ArrayList<>();
        for (Method m : FencedNativeBridge.class.getDeclaredMethods()) {
            if (!Modifier.isNative(m.getModifiers())) {
                continue;
            }
            Object[] args = ARGS.get(m.getName());
            if (args == null) {
                fail("no test arguments for native method " + m);
            }
            m.setAccessible(true);
            try {
                assertNotNull(m.invoke(null, args), m.getName());
            } catch (InvocationTargetException e) {
                fail(m.getName() + " threw " + e.getCause());
            }
            invoked.add(m.getName());
        }
        assertEquals(ARGS.keySet().stream().sorted().toList(), invoked.stream().sorted().toList());
        assertEquals(Long.MAX_VALUE, F.maxVersion());
        assertEquals(150, F.ownerGoneAfterSeconds());
    }

    private static void badInput(String argument, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().contains(argument), argument + " in " + e.getMessage());
    }

    @Test
    void badInputNamesTheArgument() {
        badInput("version", () -> FencedNativeBridge.entry(0, 5, 2, -1, false));
        badInput("operation", () -> FencedNativeBridge.entry(0, 99, 2, 1, false));
        badInput("exhausted", () -> FencedNativeBridge.entry(0, 5, 2, Long.MAX_VALUE, false));
        badInput("movedTo", () -> FencedNativeBridge.completion(0, 7, 5, 77, 0));
        badInput("currentVersion", () -> FencedNativeBridge.scaleStep(0, 0, 2, 1, -1, 0, -1, 2, -5, false));
        badInput("holdVersion", () -> FencedNativeBridge.scaleStep(0, 0, 2, 1, 5, -3, 5, 2, 1, false));
        badInput("holdMovedTo", () -> FencedNativeBridge.scaleStep(0, 0, 2, 1, 5, 2, 99, 5, 2, true));
        badInput("listedState", () -> FencedNativeBridge.reconcile(0, 200, 3, false, 0));
        badInput("clusterStates", () -> FencedNativeBridge.planRecovery(0, new long[] {1}, new int[0], new long[] {0},
                new long[] {-1}, new long[] {-1}, new long[] {-1}, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS,
                new int[0], NO_LONGS));
        badInput("hostStatuses", () -> FencedNativeBridge.planRecovery(0, NO_LONGS, new int[0], NO_LONGS, NO_LONGS,
                NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, new long[] {1}, new long[] {1}, new int[] {9},
                new long[] {0}));
        badInput("jobIds must not be null", () -> FencedNativeBridge.planRecovery(0, NO_LONGS, new int[0], NO_LONGS,
                NO_LONGS, NO_LONGS, NO_LONGS, null, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, new int[0], NO_LONGS));
        badInput("ownerMsids", () -> FencedNativeBridge.planRecovery(0, new long[] {1}, new int[] {5}, new long[] {0},
                new long[] {-7}, new long[] {1}, new long[] {-1}, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS,
                new int[0], NO_LONGS));
        badInput("endedJobIds[0]", () -> FencedNativeBridge.planRecovery(0, NO_LONGS, new int[0], NO_LONGS,
                NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS, new long[] {-2}, NO_LONGS, NO_LONGS, new int[0],
                NO_LONGS));
        badInput("row", () -> F.entry(Operation.START, null, ME));
        badInput("me", () -> F.entry(Operation.START, Fence.of(State.Alert, 0, null), null));
    }

    @Test
    void entryTakesTheClusterWithTheNextVersion() {
        FencedEntry<State, Event> e = F.entry(Operation.UPGRADE, Fence.of(State.Running, 4, null), ME);
        assertEquals(FencedEntry.Kind.TAKE, e.kind());
        assertEquals(new FencedWrite<>(new Token<>(State.Running, 4), new Token<>(State.Upgrading, 5),
                Event.UpgradeRequested, ME), e.write());
        assertEquals(new Hold<>(new Token<>(State.Upgrading, 5), State.Upgrading), e.hold());
        assertTrue(e.transitions());
        // A proceed takes the cluster in its state.
        FencedEntry<State, Event> destroy = F.entry(Operation.DESTROY, Fence.of(State.Destroying, 9, null), ME);
        assertEquals(new FencedWrite<>(new Token<>(State.Destroying, 9), new Token<>(State.Destroying, 10), null, ME),
                destroy.write());
        assertNull(destroy.hold().movedTo());
        // Held: busy, naming the holder; also the table's Starting -> Stopping takeover.
        FencedEntry<State, Event> busy = F.entry(Operation.STOP, Fence.of(State.Starting, 3, OTHER), ME);
        assertEquals(FencedEntry.Kind.BUSY, busy.kind());
        assertEquals(OTHER, busy.busyOwner());
        assertEquals(FencedEntry.Kind.NOTHING_TO_DO, F.entry(Operation.START, Fence.of(State.Running, 1, OTHER), ME).kind());
        FencedEntry<State, Event> refused = F.entry(Operation.ADD_NODES, Fence.of(State.Stopped, 1, null), ME);
        assertEquals(FencedEntry.Kind.REFUSE, refused.kind());
        assertTrue(refused.refusal().contains("Stopped"), refused.refusal());
    }

    @Test
    void completionExpectsTheEntrysTokenAndReleases() {
        Hold<State> hold = new Hold<>(new Token<>(State.Upgrading, 5), State.Upgrading);
        assertEquals(new FencedWrite<>(new Token<>(State.Upgrading, 5), new Token<>(State.Running, 6),
                Event.OperationSucceeded, null), F.completion(hold, Outcome.SUCCEEDED));
        assertEquals(State.Alert, F.completion(hold, Outcome.FAILED).target().state());
        Hold<State> proceeded = new Hold<>(new Token<>(State.Alert, 2), null);
        assertEquals(new FencedWrite<>(new Token<>(State.Alert, 2), new Token<>(State.Alert, 3), null, null),
                F.completion(proceeded, Outcome.SUCCEEDED));
    }

    @Test
    void aCreatedScaleHoldsTheClusterAgainstAStart() {
        FencedScale<State, Event> scale = F.beginScale(ScaleKind.SCALE_UP, new Token<>(State.Created, 0), ME);
        FencedScaleStep<State, Event> step = scale.nextStep(Fence.of(State.Created, 0, null));
        assertEquals(FencedScaleStep.Kind.TAKE, step.kind());
        assertNull(step.write().event());
        scale.markHeld(step.write());
        assertEquals(FencedScaleStep.Kind.ALREADY_HELD, scale.nextStep(null).kind());
        Fence<State> held = new Fence<>(step.write().target(), ME);
        assertEquals(FencedEntry.Kind.BUSY, F.entry(Operation.START, held, OTHER).kind());
        assertEquals(new Token<>(State.Created, 2), scale.completion(true).target());
        FencedScale<State, Event> late = F.beginScale(ScaleKind.SCALE_UP, new Token<>(State.Created, 0), ME);
        FencedScaleStep<State, Event> taken = late.nextStep(Fence.of(State.Starting, 1, OTHER));
        assertEquals(FencedScaleStep.Kind.FAIL_TAKEN_SINCE, taken.kind());
        assertTrue(taken.message().contains("Starting"), taken.message());
        FencedScale<State, Event> running = F.beginScale(ScaleKind.SCALE_DOWN, new Token<>(State.Running, 3), ME);
        FencedScaleStep<State, Event> enter = running.nextStep(Fence.of(State.Running, 3, null));
        assertEquals(new Token<>(State.Scaling, 4), enter.write().target());
        running.markHeld(enter.write());
        assertTrue(running.movedCluster());
        assertNull(F.beginScale(ScaleKind.SCALE_UP, new Token<>(State.Running, 3), ME).completion(true));
    }

    @Test
    void reconcileHoldsBetweenItsStepsAndLeavesHeldRows() {
        Owner scanner = Owner.of(9, 90);
        List<FencedWrite<State, Event>> steps = F.planReconcile(Fence.of(State.Alert, 7, null), VmSummary.ALL_STOPPED,
                scanner);
        assertEquals(List.of(
                new FencedWrite<>(new Token<>(State.Alert, 7), new Token<>(State.Stopping, 8), Event.StopRequested,
                        scanner),
                new FencedWrite<>(new Token<>(State.Stopping, 8), new Token<>(State.Stopped, 9),
                        Event.OperationSucceeded, null)), steps);
        assertTrue(F.planReconcile(Fence.of(State.Alert, 7, ME), VmSummary.ALL_STOPPED, scanner).isEmpty());
    }

    @Test
    void recoveryOnlyWhenTheOwnerIsProvablyGone() {
        Owner down = new Owner(1, 1, 11);
        Owner restarted = new Owner(2, 1, 12);
        Owner stale = new Owner(3, 1, 13);
        Owner alive = new Owner(4, 1, 14);
        Owner aliveJobGone = new Owner(5, 1, 15);
        Owner goneButJobRuns = new Owner(6, 1, 16);
        List<FencedCandidate<State>> candidates = List.of(
                new FencedCandidate<>(1, Fence.of(State.Upgrading, 3, down)),
                new FencedCandidate<>(2, Fence.of(State.Scaling, 3, restarted)),
                new FencedCandidate<>(3, Fence.of(State.Alert, 3, stale)),
                new FencedCandidate<>(4, Fence.of(State.Upgrading, 3, alive)),
                new FencedCandidate<>(5, Fence.of(State.Upgrading, 3, aliveJobGone)),
                new FencedCandidate<>(6, Fence.of(State.Upgrading, 3, goneButJobRuns)),
                new FencedCandidate<>(7, Fence.of(State.Stopping, 3, null)));
        List<InProgressJob> jobs = List.of(new InProgressJob(14, 4), new InProgressJob(16, InProgressJob.UNKNOWN_CLUSTER));
        List<MsHost> hosts = List.of(new MsHost(1, 1, MsHost.Status.DOWN, 0), new MsHost(2, 2, MsHost.Status.UP, 1),
                new MsHost(3, 1, MsHost.Status.UP, 151), new MsHost(4, 1, MsHost.Status.UP, 1),
                new MsHost(5, 1, MsHost.Status.UP, 149), new MsHost(6, 1, MsHost.Status.DOWN, 0));
        List<FencedRecovery<State, Event>> plan = F.planRecovery(candidates, jobs, hosts);
        assertEquals(List.of(1L, 2L, 3L), plan.stream().map(FencedRecovery::clusterId).toList(),
                "7 waits: an unknown job might be its");
        assertEquals(List.of(GoneReason.OWNER_DOWN, GoneReason.OWNER_RESTARTED, GoneReason.HEARTBEAT_STALE),
                plan.stream().map(FencedRecovery::reason).toList());
        assertEquals(new FencedWrite<>(new Token<>(State.Upgrading, 3), new Token<>(State.Alert, 4),
                Event.OperationFailed, null), plan.get(0).write());
        assertEquals(new FencedWrite<>(new Token<>(State.Alert, 3), new Token<>(State.Alert, 4), null, null),
                plan.get(2).write(), "held at rest: only released");
        List<FencedRecovery<State, Event>> noJobs = F.planRecovery(List.of(candidates.get(6)), List.of(), List.of());
        assertEquals(GoneReason.NO_OWNER_NO_JOB, noJobs.get(0).reason());
    }
}
