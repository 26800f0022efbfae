// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The workers' state rules (upstream KubernetesClusterActionWorkerTest and the scaling worker's
 * tests), once per database and mode: the same guard, the mode bound into its machine. Where the
 * modes differ by design (fenced holds the cluster, so its completion always writes), the test says so.
 */
class OperationGuardTest {
    private static final Owner WORKER = new Owner(1, 1, 100);

    static Stream<Arguments> dbs() {
        return ModeFixtures.allDbsAndModes();
    }

    private static Fixtures reset(Databases.Db db, StateMode mode) throws SQLException {
        return ModeFixtures.reset(db, mode);
    }

    private static ClusterOperationGuard<State, Event> guard(Databases.Db db, StateMode mode) {
        return guard(db.source(), mode);
    }

    private static ClusterOperationGuard<State, Event> guard(ConnectionSource source, StateMode mode) {
        return new ClusterOperationGuard<>(new KubernetesClusterStateDao<>(Fixtures.MACHINE.withMode(mode), source),
                WORKER);
    }

    @ParameterizedTest(name = "{0} {1}: transitToOperationState moves the cluster")
    @MethodSource("dbs")
    void transitMovesTheCluster(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Running);
        OperationEntry<State, Event> entry = guard(db, mode).transitToOperationState(id, Operation.UPGRADE);
        assertEquals(OperationEntry.Kind.ENTERED, entry.kind());
        assertTrue(entry.mayProceed());
        assertEquals(State.Running, entry.startedFrom());
        assertEquals(State.Upgrading, entry.movedTo());
        assertEquals(State.Upgrading, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: a destroy of a never-started cluster removes its row; a start first makes it miss")
    @MethodSource("dbs")
    void aDestroyOfANeverStartedClusterRemovesItsRow(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        long created = f.cluster(State.Created);
        OperationEntry<State, Event> destroy = guard.transitToOperationState(created, Operation.DESTROY);
        assertEquals(OperationEntry.Kind.PROCEEDED, destroy.kind(), "CloudStack's table has no way out of Created");
        assertTrue(guard.removeNeverStarted(created, destroy));
        assertTrue(removed(f, created), "removed as CloudStack's remove does");
        assertEquals(State.Created, f.state(created), "no state CloudStack's table lacks");
        assertNull(guard.dao().findRow(created));
        assertFalse(guard.removeNeverStarted(created, destroy), "once");

        // A start that moved the cluster between the destroy's entry and its removal wins: nothing removed.
        long racing = f.cluster(State.Created);
        OperationEntry<State, Event> late = guard.transitToOperationState(racing, Operation.DESTROY);
        f.setState(racing, State.Starting);
        assertFalse(guard.removeNeverStarted(racing, late));
        assertFalse(removed(f, racing));
        assertEquals(State.Starting, f.state(racing));

        // Not an ending of any other operation, nor of a destroy the table completes.
        long destroying = f.cluster(State.Destroying);
        OperationEntry<State, Event> retried = guard.transitToOperationState(destroying, Operation.DESTROY);
        assertEquals(OperationEntry.Kind.PROCEEDED, retried.kind());
        assertFalse(guard.removeNeverStarted(destroying, retried), "Destroying completes to Destroyed instead");
        long running = f.cluster(State.Running);
        OperationEntry<State, Event> entered = guard.transitToOperationState(running, Operation.DESTROY);
        assertFalse(guard.removeNeverStarted(running, entered), "it moved the cluster");
        long createdToo = f.cluster(State.Created);
        OperationEntry<State, Event> scale = guard.transitToOperationState(createdToo, Operation.SCALE);
        assertFalse(guard.removeNeverStarted(createdToo, scale), "another operation");
        for (long id : List.of(destroying, running, createdToo)) {
            assertFalse(removed(f, id), "row " + id);
        }

        // A destroyed cluster whose removal never came: the destroy has nothing left to do but remove it.
        long destroyed = f.cluster(State.Destroyed);
        assertEquals(OperationEntry.Kind.NOTHING_TO_DO, guard.transitToOperationState(destroyed, Operation.DESTROY).kind());
    }

    private static boolean removed(Fixtures f, long clusterId) throws SQLException {
        return f.queryString("SELECT removed FROM kubernetes_cluster WHERE id = " + clusterId) != null;
    }

    @ParameterizedTest(name = "{0} {1}: an operation fails when another moved the cluster first, moving nothing")
    @MethodSource("dbs")
    void failsWhenAnotherOperationMovedTheClusterFirst(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Running);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        // Both workers loaded the cluster in Running; the scale gets there first.
        assertEquals(OperationEntry.Kind.ENTERED, guard.transitToOperationState(id, Operation.SCALE, State.Running).kind());
        OperationEntry<State, Event> upgrade = guard.transitToOperationState(id, Operation.UPGRADE, State.Running);
        assertEquals(OperationEntry.Kind.LOST_RACE, upgrade.kind());
        assertFalse(upgrade.mayProceed());
        assertNull(upgrade.movedTo());
        assertTrue(upgrade.message().contains("please retry"), upgrade.message());
        assertEquals(State.Scaling, f.state(id), "the loser moved nothing");
        // And its failure path leaves the winner's state alone.
        assertFalse(guard.complete(id, upgrade, Outcome.FAILED));
        assertEquals(State.Scaling, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: refused without a transition unless an exemption proceeds; done is nothing to do")
    @MethodSource("dbs")
    void refusedWithoutATransitionUnlessExempt(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);

        long stopped = f.cluster(State.Stopped);
        OperationEntry<State, Event> add = guard.transitToOperationState(stopped, Operation.ADD_NODES);
        assertEquals(OperationEntry.Kind.REFUSED, add.kind());
        assertNotNull(add.message());
        assertEquals(State.Stopped, f.state(stopped));

        long scaling = f.cluster(State.Scaling);
        assertEquals(OperationEntry.Kind.REFUSED, guard.transitToOperationState(scaling, Operation.STOP).kind());
        assertEquals(OperationEntry.Kind.REFUSED, guard.transitToOperationState(scaling, Operation.DESTROY).kind());
        assertEquals(State.Scaling, f.state(scaling));

        long alert = f.cluster(State.Alert);
        OperationEntry<State, Event> start = guard.transitToOperationState(alert, Operation.START);
        assertEquals(OperationEntry.Kind.PROCEEDED, start.kind());
        assertTrue(start.mayProceed());
        assertNull(start.movedTo());
        assertEquals(State.Alert, f.state(alert));
        // CloudStack's own start of an Alert cluster ends Running (Alert -OperationSucceeded-> Running).
        assertTrue(guard.complete(alert, start, Outcome.SUCCEEDED), "proceeded: completes by the table's row");
        assertEquals(State.Running, f.state(alert));
        long alertAgain = f.cluster(State.Alert);
        OperationEntry<State, Event> failedStart = guard.transitToOperationState(alertAgain, Operation.START);
        assertEquals(mode == StateMode.FENCED, guard.complete(alertAgain, failedStart, Outcome.FAILED),
                "no failure row from Alert: nothing to write (fenced: only releases the cluster)");
        assertEquals(State.Alert, f.state(alertAgain));

        long destroying = f.cluster(State.Destroying);
        assertEquals(OperationEntry.Kind.PROCEEDED, guard.transitToOperationState(destroying, Operation.DESTROY).kind());

        long running = f.cluster(State.Running);
        assertEquals(OperationEntry.Kind.NOTHING_TO_DO, guard.transitToOperationState(running, Operation.START).kind());
        assertEquals(OperationEntry.Kind.NOTHING_TO_DO, guard.transitToOperationState(stopped, Operation.STOP).kind());
        assertEquals(State.Running, f.state(running));

        OperationEntry<State, Event> missing = guard.transitToOperationState(running + 1000, Operation.STOP);
        assertEquals(OperationEntry.Kind.REFUSED, missing.kind());
        assertTrue(missing.message().contains("not found"));
    }

    @ParameterizedTest(name = "{0} {1}: a completion leaves a cluster that has moved on")
    @MethodSource("dbs")
    void completionLeavesAMovedOnCluster(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        long id = f.cluster(State.Running);
        OperationEntry<State, Event> upgrade = guard.transitToOperationState(id, Operation.UPGRADE);
        assertEquals(State.Upgrading, upgrade.movedTo());
        // The scanner (or an operator) moved it on meanwhile.
        f.setState(id, State.Running);
        assertFalse(guard.complete(id, upgrade, Outcome.FAILED));
        assertEquals(State.Running, f.state(id));

        long other = f.cluster(State.Running);
        OperationEntry<State, Event> second = guard.transitToOperationState(other, Operation.UPGRADE);
        assertEquals(State.Upgrading, second.movedTo());
        assertTrue(guard.complete(other, second, Outcome.FAILED));
        assertEquals(State.Alert, f.state(other));

        long third = f.cluster(State.Running);
        OperationEntry<State, Event> remove = guard.transitToOperationState(third, Operation.REMOVE_NODES);
        assertTrue(guard.complete(third, remove, Outcome.SUCCEEDED));
        assertEquals(State.Running, f.state(third));
        OperationEntry<State, Event> done = guard.transitToOperationState(third, Operation.START);
        assertFalse(guard.complete(third, done, Outcome.FAILED), "nothing moved: leave it");
        assertEquals(State.Running, f.state(third));
    }

    @ParameterizedTest(name = "{0} {1}: a create failure in Starting may go to Error")
    @MethodSource("dbs")
    void createFailure(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        long id = f.cluster(State.Created);
        OperationEntry<State, Event> start = guard.transitToOperationState(id, Operation.START);
        assertEquals(State.Starting, start.movedTo());
        assertTrue(guard.complete(id, start, Outcome.CREATE_FAILED));
        assertEquals(State.Error, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: enterScalingState transitions once for all steps of an operation")
    @MethodSource("dbs")
    void enterScalingStateOnceForAllSteps(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Running);
        StatementCounter counter = new StatementCounter(db.source());
        ClusterOperationGuard<State, Event> guard = guard(counter, mode);
        ScaleOperation<State, Event> scale = guard.beginScale(id, ScaleKind.SCALE_UP, State.Running);
        counter.reset();

        ScaleEntry<State, Event> first = guard.enterScalingState(id, scale);
        assertEquals(ScaleEntry.Kind.ENTERED, first.kind());
        assertTrue(scale.movedCluster());
        assertEquals(State.Scaling, f.state(id));
        assertEquals(2, counter.count(), "one read, one compare-and-set");
        counter.reset();
        for (int step = 0; step < 3; step++) {
            ScaleEntry<State, Event> later = guard.enterScalingState(id, scale);
            assertEquals(ScaleEntry.Kind.ALREADY_ENTERED, later.kind());
            assertTrue(later.mayProceed());
        }
        assertEquals(0, counter.count(), "later steps neither read nor write");
        assertTrue(guard.completeScale(id, scale, Outcome.SUCCEEDED));
        assertEquals(State.Running, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: a scale of a Stopped cluster enters ScalingStoppedCluster and fails to Alert")
    @MethodSource("dbs")
    void stoppedClusterScaling(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Stopped);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        ScaleOperation<State, Event> offering = guard.beginScale(id, ScaleKind.OFFERING_CHANGE, State.Stopped);
        assertEquals(ScaleEntry.Kind.ENTERED, guard.enterScalingState(id, offering).kind());
        assertEquals(State.ScalingStoppedCluster, f.state(id));
        assertTrue(guard.completeScale(id, offering, Outcome.FAILED));
        assertEquals(State.Alert, f.state(id));

        long other = f.cluster(State.Stopped);
        ScaleOperation<State, Event> sizeChange = guard.beginScale(other, ScaleKind.SCALE_UP, State.Stopped);
        ScaleEntry<State, Event> refused = guard.enterScalingState(other, sizeChange);
        assertEquals(ScaleEntry.Kind.REFUSED, refused.kind());
        assertNotNull(refused.message());
        assertEquals(State.Stopped, f.state(other));
    }

    @ParameterizedTest(name = "{0} {1}: enterScalingState fails when another operation got there first")
    @MethodSource("dbs")
    void enterScalingStateFailsWhenAnotherGotThereFirst(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Running);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        ScaleOperation<State, Event> first = guard.beginScale(id, ScaleKind.SCALE_UP, State.Running);
        ScaleOperation<State, Event> second = guard.beginScale(id, ScaleKind.SCALE_DOWN, State.Running);
        assertEquals(ScaleEntry.Kind.ENTERED, guard.enterScalingState(id, first).kind());
        ScaleEntry<State, Event> late = guard.enterScalingState(id, second);
        assertFalse(late.mayProceed(), late.toString());
        assertNotNull(late.message());
        assertFalse(second.movedCluster());
        assertEquals(State.Scaling, f.state(id));
        // The loser's failure (or a validation failure before entering) never fails the other's Scaling.
        assertFalse(guard.completeScale(id, second, Outcome.FAILED));
        assertEquals(State.Scaling, f.state(id));
        assertTrue(guard.completeScale(id, first, Outcome.FAILED));
        assertEquals(State.Alert, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: enterScalingState loses the race between its read and its compare-and-set")
    @MethodSource("dbs")
    void enterScalingStateLostRace(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Running);
        // An upgrade takes the cluster between the scale worker's read and its compare-and-set.
        ConnectionSource racing = RacingWrites.before(db.source(), () -> f.setState(id, State.Upgrading));
        ClusterOperationGuard<State, Event> guard = guard(racing, mode);
        ScaleOperation<State, Event> scale = guard.beginScale(id, ScaleKind.AUTOSCALE, State.Running);
        ScaleEntry<State, Event> entry = guard.enterScalingState(id, scale);
        assertEquals(ScaleEntry.Kind.LOST_RACE, entry.kind());
        assertTrue(entry.message().contains("please retry"));
        assertFalse(scale.movedCluster());
        assertEquals(State.Upgrading, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: enterScalingState leaves a never-started cluster in its state")
    @MethodSource("dbs")
    void enterScalingStateLeavesACreatedCluster(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Created);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        ScaleOperation<State, Event> scale = guard.beginScale(id, ScaleKind.SCALE_UP, State.Created);
        ScaleEntry<State, Event> step = guard.enterScalingState(id, scale);
        assertEquals(ScaleEntry.Kind.SETTINGS_ONLY, step.kind());
        assertTrue(step.mayProceed());
        assertEquals(ScaleEntry.Kind.SETTINGS_ONLY, guard.enterScalingState(id, scale).kind());
        assertFalse(scale.movedCluster());
        assertEquals(State.Created, f.state(id));
        assertEquals(mode == StateMode.FENCED, guard.completeScale(id, scale, Outcome.FAILED),
                "settings only: the state is left alone (fenced: the hold is released)");
        assertEquals(State.Created, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: enterScalingState fails for a Created cluster that a start has taken since")
    @MethodSource("dbs")
    void enterScalingStateFailsWhenAStartTookTheCluster(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Created);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        ScaleOperation<State, Event> scale = guard.beginScale(id, ScaleKind.SCALE_UP, State.Created);
        assertEquals(OperationEntry.Kind.ENTERED, guard.transitToOperationState(id, Operation.START).kind());
        ScaleEntry<State, Event> step = guard.enterScalingState(id, scale);
        assertEquals(ScaleEntry.Kind.TAKEN_SINCE, step.kind());
        assertNotNull(step.message());
        assertEquals(State.Starting, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: add nodes enters Importing before the binaries ISO is attached")
    @MethodSource("dbs")
    void addNodesEntersImportingBeforeTheIso(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        ClusterOperationGuard<State, Event> guard = guard(db, mode);
        long id = f.cluster(State.Running);
        List<State> seenByHook = new ArrayList<>();
        OperationEntry<State, Event> entry = guard.addNodes(id, () -> {
            try {
                seenByHook.add(f.state(id));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(OperationEntry.Kind.ENTERED, entry.kind());
        assertEquals(List.of(State.Importing), seenByHook, "the ISO is attached once, after Importing");
        assertTrue(guard.complete(id, entry, Outcome.SUCCEEDED));
        assertEquals(State.Running, f.state(id));

        // Refused (Stopped) and taken (Scaling): the hook never runs.
        long stopped = f.cluster(State.Stopped);
        long scaling = f.cluster(State.Scaling);
        int[] runs = {0};
        assertEquals(OperationEntry.Kind.REFUSED, guard.addNodes(stopped, () -> runs[0]++).kind());
        assertEquals(OperationEntry.Kind.REFUSED, guard.addNodes(scaling, () -> runs[0]++).kind());
        assertEquals(0, runs[0]);
        assertEquals(State.Stopped, f.state(stopped));
        assertEquals(State.Scaling, f.state(scaling));

        // The hook fails: the add that moved the cluster fails it.
        long failing = f.cluster(State.Running);
        IllegalStateException boom = new IllegalStateException("attach failed");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> guard.addNodes(failing, () -> {
            throw boom;
        })));
        assertEquals(State.Running, f.state(failing), "CloudStack's table: a failed add goes back to Running");
    }

    @ParameterizedTest(name = "{0} {1}: add nodes: the hook is not run when the race is lost")
    @MethodSource("dbs")
    void addNodesLostRaceRunsNoHook(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = reset(db, mode);
        long id = f.cluster(State.Running);
        ConnectionSource racing = RacingWrites.before(db.source(), () -> f.setState(id, State.RemovingNodes));
        ClusterOperationGuard<State, Event> guard = guard(racing, mode);
        int[] runs = {0};
        OperationEntry<State, Event> entry = guard.addNodes(id, () -> runs[0]++);
        assertEquals(OperationEntry.Kind.LOST_RACE, entry.kind());
        assertEquals(0, runs[0]);
        assertEquals(State.RemovingNodes, f.state(id));
    }
}
