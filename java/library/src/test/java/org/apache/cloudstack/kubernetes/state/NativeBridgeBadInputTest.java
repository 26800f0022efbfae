package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad input on every native method: the documented exception naming the argument, never a crash. */
@NativeTestHooks.Needed
class NativeBridgeBadInputTest {
    private static final int STATES = 15;
    private static final int EVENTS = 14;

    @BeforeAll
    static void load() {
        NativeLibrary.load();
    }

    private static void bad(String argument, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(argument),
                "message should name " + argument + ": " + e.getMessage());
    }

    @Test
    void names() {
        bad("kind", () -> NativeBridge.names(3));
        bad("kind", () -> NativeBridge.names(-1));
    }

    @Test
    void transitions() {
        bad("profile", () -> NativeBridge.transitions(2));
        bad("profile", () -> NativeBridge.transitions(-1));
    }

    @Test
    void nextState() {
        bad("profile", () -> NativeBridge.nextState(2, 0, 0));
        bad("state", () -> NativeBridge.nextState(0, STATES, 0));
        bad("state", () -> NativeBridge.nextState(0, -1, 0));
        bad("event", () -> NativeBridge.nextState(0, 0, EVENTS));
        bad("event", () -> NativeBridge.nextState(0, 0, Integer.MIN_VALUE));
    }

    @Test
    void decideEntryAndRefusalReasons() {
        bad("profile", () -> NativeBridge.decideEntry(-1, 0, 0));
        bad("operation", () -> NativeBridge.decideEntry(0, 9, 0));
        bad("state", () -> NativeBridge.decideEntry(0, 0, 255));
        bad("operation", () -> NativeBridge.refusalReason(-1, 0));
        bad("state", () -> NativeBridge.refusalReason(0, STATES));
        bad("scaleKind", () -> NativeBridge.scaleRefusalReason(4, 0));
        bad("state", () -> NativeBridge.scaleRefusalReason(0, -2));
    }

    @Test
    void scaling() {
        bad("profile", () -> NativeBridge.scaleBegin(5, 0, 2));
        bad("scaleKind", () -> NativeBridge.scaleBegin(0, 4, 2));
        bad("startedFrom", () -> NativeBridge.scaleBegin(0, 0, -1));
        bad("profile", () -> NativeBridge.scaleStep(2, 0, 2, -1, 2));
        bad("scaleKind", () -> NativeBridge.scaleStep(0, -1, 2, -1, 2));
        bad("startedFrom", () -> NativeBridge.scaleStep(0, 0, STATES, -1, 2));
        bad("entered", () -> NativeBridge.scaleStep(0, 0, 2, -2, 2));
        bad("current", () -> NativeBridge.scaleStep(0, 0, 2, -1, 99));
    }

    @Test
    void complete() {
        bad("profile", () -> NativeBridge.complete(3, 5, 0));
        bad("movedTo", () -> NativeBridge.complete(0, STATES, 0));
        bad("outcome", () -> NativeBridge.complete(0, 5, 3));
    }

    @Test
    void planRecovery() {
        long[] one = {1};
        int[] scaling = {5};
        bad("clusterIds", () -> NativeBridge.planRecovery(null, scaling, new long[0]));
        bad("clusterStates", () -> NativeBridge.planRecovery(one, null, new long[0]));
        bad("jobClusterIds", () -> NativeBridge.planRecovery(one, scaling, null));
        bad("clusterStates", () -> NativeBridge.planRecovery(new long[] {1, 2}, scaling, new long[0]));
        bad("clusterStates", () -> NativeBridge.planRecovery(one, new int[] {STATES}, new long[0]));
        bad("clusterIds", () -> NativeBridge.planRecovery(new long[] {-5}, scaling, new long[0]));
        bad("jobClusterIds", () -> NativeBridge.planRecovery(one, scaling, new long[] {-2}));
    }

    @Test
    void reconcile() {
        bad("profile", () -> NativeBridge.planReconcile(2, 10, 0));
        bad("listedState", () -> NativeBridge.planReconcile(0, STATES, 0));
        bad("vmSummary", () -> NativeBridge.planReconcile(0, 10, 4));
    }

    @Test
    void setLogLevelAndForcePanic() {
        bad("level", () -> NativeBridge.setLogLevel(6));
        bad("level", () -> NativeBridge.setLogLevel(-1));
        bad("message", () -> NativeTestHooks.forcePanic(null));
        NativeLog.syncLevel(); // restore the mirrored level after the failed calls
    }

    @Test
    void aPanicBecomesOurExceptionWithItsMessage() {
        CksStateNativeException e = assertThrows(CksStateNativeException.class, () -> NativeTestHooks.forcePanic("boom {}"));
        assertTrue(e.getMessage().contains("boom {}"), e.getMessage());
        // The library stays usable after a panic.
        assertEquals(2, NativeBridge.nextState(0, 1, 10));
        CksStateNativeException again = assertThrows(CksStateNativeException.class,
                () -> NativeTestHooks.forcePanic("second {0} %s"));
        assertTrue(again.getMessage().contains("second {0} %s"), again.getMessage());
    }
}
