// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * Run by scripts/platform-smoke.sh in another platform's JVM (an older glibc, aarch64 under
 * qemu) with only the library jar, log4j-api and this class on the class path: the jar must pick
 * that platform's build and answer. Prints SMOKE OK, else the first wrong answer, exit 1.
 */
public final class PlatformSmoke {
    private PlatformSmoke() {
    }

    public static void main(String[] args) {
        String expectedPlatform = args.length > 0 ? args[0] : null;
        NativeLibrary.load();
        check("platform", expectedPlatform, NativeLibrary.platform());
        check("ABI version", NativeLibrary.expectedAbiVersion(), NativeLibrary.abiVersion());

        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class, Profile.CLOUDSTACK_4_22);
        check("nextState(Running, ScaleUpRequested)", State.Scaling, machine.nextState(State.Running, Event.ScaleUpRequested));
        check("nextState(Stopped, UpgradeRequested)", null, machine.nextState(State.Stopped, Event.UpgradeRequested));

        EntryDecision<State, Event> upgrade = machine.decideEntry(Operation.UPGRADE, State.Running);
        check("Upgrade from Running", EntryDecision.Kind.TRANSITION, upgrade.kind());
        check("Upgrade from Running enters", State.Upgrading, upgrade.update().target());
        check("Stop from Stopped", EntryDecision.Kind.NOTHING_TO_DO, machine.decideEntry(Operation.STOP, State.Stopped).kind());
        check("Upgrade from Stopped", EntryDecision.Kind.REFUSE, machine.decideEntry(Operation.UPGRADE, State.Stopped).kind());

        // Cluster 1 is scaling with a live job, cluster 2 was left scaling by a stopped server.
        RecoveryPlan<State, Event> plan = machine.planRecovery(
                List.of(new ClusterSnapshot<>(1, State.Scaling), new ClusterSnapshot<>(2, State.Scaling)), new long[] {1});
        check("recovery plan", RecoveryPlan.Kind.RECOVER, plan.kind());
        check("recovered clusters", 1, plan.recoveries().size());
        check("recovered cluster", 2L, plan.recoveries().get(0).clusterId());
        check("recovered to", State.Alert, plan.recoveries().get(0).write().target().state());

        System.out.println("SMOKE OK " + NativeLibrary.platform() + " os.arch=" + System.getProperty("os.arch")
                + " java=" + System.getProperty("java.version") + " library=" + NativeLibrary.source());
    }

    private static void check(String what, Object expected, Object actual) {
        if (!java.util.Objects.equals(expected, actual)) {
            System.out.println("SMOKE FAILED " + what + ": expected " + expected + ", got " + actual);
            System.exit(1);
        }
    }
}
