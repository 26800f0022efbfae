// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.examples;

import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.examples.HostCluster.Event;
import org.apache.cloudstack.kubernetes.state.examples.HostCluster.State;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;

/** The first program of docs/java-api.md: bind, ask, write. */
public final class FirstProgram {
    private FirstProgram() {
    }

    /** What it learned: the next state, the entry kind, whether the write changed the row. */
    public record Answers(State next, EntryDecision.Kind stop, boolean written) {
    }

    public static Answers run(ConnectionSource connections, long clusterId) {
        // region first-program
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);
        State next = machine.nextState(State.Running, Event.ScaleUpRequested);                 // Scaling
        EntryDecision<State, Event> stop = machine.decideEntry(Operation.STOP, State.Stopped); // NOTHING_TO_DO
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(machine, connections);
        boolean written = dao.updateState(clusterId, State.Running, Event.StopRequested);     // true: the row changed
        // endregion
        return new Answers(next, stop.kind(), written);
    }
}
