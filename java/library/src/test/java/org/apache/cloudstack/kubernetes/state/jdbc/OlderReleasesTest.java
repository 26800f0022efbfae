// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.Profile;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The JDBC side with other host enums and profiles: names in the database, never ordinals. */
class OlderReleasesTest {

    /** CloudStack 4.16-4.20 states (no ScalingStoppedCluster, Importing, RemovingNodes), in another order. */
    enum State416 {
        Error, Destroying, Destroyed, Recovering, Alert, Upgrading, Scaling, Stopped, Stopping, Running, Starting, Created
    }

    /** CloudStack 4.16-4.20 events (no AddNodeRequested, RemoveNodeRequested). */
    enum Event416 {
        FaultsDetected, CreateFailed, OperationFailed, OperationSucceeded, UpgradeRequested, ScaleDownRequested,
        ScaleUpRequested, AutoscaleRequested, RecoveryRequested, DestroyRequested, StopRequested, StartRequested
    }

    static Stream<Databases.Db> dbs() {
        return Databases.perDatabase();
    }

    @ParameterizedTest(name = "{0} a 4.16 host enum: states by name, unknown newer states never selected")
    @MethodSource("dbs")
    void olderHostEnum(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        ClusterStateMachine<State416, Event416> machine = ClusterStateMachine.bind(State416.class, Event416.class, Profile.CLOUDSTACK_4_22);
        KubernetesClusterStateDao<State416, Event416> dao = new KubernetesClusterStateDao<>(machine, db.source());
        long scaling = f.cluster(State.Scaling);
        long importing = f.cluster(State.Importing); // written by a newer server: the 4.16 enum lacks it
        long running = f.cluster(State.Running);

        RecoveryResult<State416> result = new ClusterStateScanner<>(dao).recoverOrphanedOperationStates();
        assertEquals(List.of(scaling), result.candidateIds());
        assertEquals(List.of(scaling), result.recoveredIds());
        assertEquals(State.Alert, f.state(scaling));
        assertEquals(State.Importing, f.state(importing));

        ClusterOperationGuard<State416, Event416> guard = new ClusterOperationGuard<>(dao);
        OperationEntry<State416, Event416> upgrade = guard.transitToOperationState(running, Operation.UPGRADE);
        assertEquals(State416.Upgrading, upgrade.movedTo());
        assertEquals(State.Upgrading, f.state(running), "stored by name");
        assertEquals(OperationEntry.Kind.REFUSED, guard.transitToOperationState(running, Operation.ADD_NODES).kind());
    }

    @ParameterizedTest(name = "{0} profile alert-scaling (PR #14604): a scale enters Scaling from Alert")
    @MethodSource("dbs")
    void alertScalingProfile(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class,
                Profile.ALERT_SCALING);
        ClusterOperationGuard<State, Event> guard = new ClusterOperationGuard<>(
                new KubernetesClusterStateDao<>(machine, db.source()));
        long alert = f.cluster(State.Alert);
        ScaleOperation<State, Event> scale = machine.beginScale(ScaleKind.SCALE_UP, State.Alert);
        assertEquals(ScaleEntry.Kind.ENTERED, guard.enterScalingState(alert, scale).kind());
        assertEquals(State.Scaling, f.state(alert));
        assertTrue(guard.completeScale(alert, scale, Outcome.SUCCEEDED));
        assertEquals(State.Running, f.state(alert));

        // Upstream profile: refused from Alert, nothing moves.
        long other = f.cluster(State.Alert);
        ScaleOperation<State, Event> upstream = Fixtures.MACHINE.beginScale(ScaleKind.SCALE_UP, State.Alert);
        ScaleEntry<State, Event> refused = new ClusterOperationGuard<>(f.dao()).enterScalingState(other, upstream);
        assertEquals(ScaleEntry.Kind.REFUSED, refused.kind());
        assertEquals(State.Alert, f.state(other));
    }
}
