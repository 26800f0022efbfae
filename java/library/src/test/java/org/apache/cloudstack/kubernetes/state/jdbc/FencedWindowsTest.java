// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each window the upstream design leaves open, as one scripted interleaving run in both modes:
 * compat mode shows the window, fenced mode refuses it.
 */
class FencedWindowsTest {
    private static final long MS1 = 11;
    private static final long MS3 = 33;

    static Stream<Arguments> cases() {
        return ModeFixtures.dbsAndModes();
    }

    private static OperationEntry<State, Event> enter(ClusterOperationGuard<State, Event> g, long id, Operation op,
            OperationEntry.Kind expected) {
        OperationEntry<State, Event> e = g.transitToOperationState(id, op);
        assertEquals(expected, e.kind(), op + ": " + e);
        return e;
    }

    @ParameterizedTest(name = "{0} {1}: ABA, the scanner cannot fail an operation that began after its read")
    @MethodSource("cases")
    void abaScannerFailsLiveOperation(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        ModeFixtures.host(f, MS1, 2, "Up"); // A's server has restarted since A began: A looks gone
        ModeFixtures.host(f, MS3, 1, "Up");
        ClusterOperationGuard<State, Event> a = ModeFixtures.guard(db, mode, new Owner(MS1, 1, 9001)); // job 9001: collected
        OperationEntry<State, Event> entryA = enter(a, id, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        AtomicReference<OperationEntry<State, Event>> entryB = new AtomicReference<>();
        AtomicReference<ClusterOperationGuard<State, Event>> b = new AtomicReference<>();
        ClusterStateScanner<State, Event> scanner = ModeFixtures.scanner(db, mode, Owner.of(MS3, 1));
        scanner.setListener(new ScanListener() {
            @Override
            public void jobsRead() {
                // Between the scanner's reads and its write: A ends, B begins and reaches Upgrading.
                try {
                    assertTrue(a.complete(id, entryA, Outcome.SUCCEEDED));
                    b.set(ModeFixtures.guard(db, mode, new Owner(MS3, 1, ModeFixtures.job(f, id, MS3))));
                    entryB.set(enter(b.get(), id, Operation.UPGRADE, OperationEntry.Kind.ENTERED));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        RecoveryResult<State> r = scanner.recoverOrphanedOperationStates();
        if (mode == StateMode.COMPAT) {
            assertEquals(List.of(id), r.recoveredIds(), "compat: the scanner failed B, which is live");
            assertEquals(State.Alert, f.state(id));
            assertFalse(b.get().complete(id, entryB.get(), Outcome.SUCCEEDED));
        } else {
            assertEquals(List.of(id), r.missedIds(), "fenced: the version moved on, the write misses");
            assertEquals(State.Upgrading, f.state(id));
            assertTrue(b.get().complete(id, entryB.get(), Outcome.SUCCEEDED));
            assertEquals(State.Running, f.state(id));
        }
    }

    @ParameterizedTest(name = "{0} {1}: a zombie completion cannot land on a newer operation's state")
    @MethodSource("cases")
    void zombieCompletion(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        ModeFixtures.host(f, MS1, 1, "Up");
        ModeFixtures.host(f, MS3, 1, "Up");
        ClusterOperationGuard<State, Event> a = ModeFixtures.guard(db, mode, new Owner(MS1, 1, ModeFixtures.job(f, id, MS1)));
        OperationEntry<State, Event> entryA = enter(a, id, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        ModeFixtures.restart(f, MS1, 2); // A's server restarts: its job fails; A itself lingers
        assertEquals(List.of(id), ModeFixtures.scanner(db, mode, Owner.of(MS3, 1)).recoverOrphanedOperationStates().recoveredIds());
        assertEquals(State.Alert, f.state(id));
        // Others bring the cluster back and start a new upgrade, B.
        ClusterOperationGuard<State, Event> ops = ModeFixtures.guard(db, mode, new Owner(MS3, 1, ModeFixtures.job(f, id, MS3)));
        assertTrue(ops.complete(id, enter(ops, id, Operation.STOP, OperationEntry.Kind.ENTERED), Outcome.SUCCEEDED));
        assertTrue(ops.complete(id, enter(ops, id, Operation.START, OperationEntry.Kind.ENTERED), Outcome.SUCCEEDED));
        OperationEntry<State, Event> entryB = enter(ops, id, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        boolean zombieHit = a.complete(id, entryA, Outcome.SUCCEEDED);
        if (mode == StateMode.COMPAT) {
            assertTrue(zombieHit, "compat: A's late completion ends B's upgrade");
            assertEquals(State.Running, f.state(id));
        } else {
            assertFalse(zombieHit, "fenced: A's token is gone");
            assertEquals(State.Upgrading, f.state(id));
            assertTrue(ops.complete(id, entryB, Outcome.SUCCEEDED));
        }
    }

    @ParameterizedTest(name = "{0} {1}: a held cluster at rest whose owner restarted is released, its state kept")
    @MethodSource("cases")
    void heldAtRestIsReleasedOnceItsOwnerIsGone(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Alert);
        ModeFixtures.host(f, MS1, 1, "Up");
        ModeFixtures.host(f, MS3, 1, "Up");
        ClusterOperationGuard<State, Event> a = ModeFixtures.guard(db, mode, new Owner(MS1, 1, ModeFixtures.job(f, id, MS1)));
        enter(a, id, Operation.START, OperationEntry.Kind.PROCEEDED); // a start from Alert keeps the state
        ModeFixtures.restart(f, MS1, 2); // its server restarts: the start is gone, its hold is not
        RecoveryResult<State> r = ModeFixtures.scanner(db, mode, Owner.of(MS3, 1)).recoverOrphanedOperationStates();
        assertEquals(State.Alert, f.state(id));
        if (mode == StateMode.COMPAT) {
            assertEquals(RecoveryResult.Kind.NO_CANDIDATE, r.kind(), "compat: nothing holds an Alert cluster");
        } else {
            assertEquals(List.of(id), r.recoveredIds(), "fenced: a held row is a candidate in any state");
            assertEquals(null, ModeFixtures.fence(db, id).owner(), "released");
            ClusterOperationGuard<State, Event> next = ModeFixtures.guard(db, mode, new Owner(MS3, 1, 7));
            enter(next, id, Operation.START, OperationEntry.Kind.PROCEEDED);
        }
    }

    @ParameterizedTest(name = "{0} {1}: of two concurrent destroys exactly one goes ahead")
    @MethodSource("cases")
    void twoDestroys(Databases.Db db, StateMode mode) throws SQLException {
        twoProceeds(db, mode, State.Destroying, Operation.DESTROY);
    }

    @ParameterizedTest(name = "{0} {1}: of two concurrent starts of an Alert cluster exactly one goes ahead")
    @MethodSource("cases")
    void twoAlertStarts(Databases.Db db, StateMode mode) throws SQLException {
        twoProceeds(db, mode, State.Alert, Operation.START);
    }

    private static void twoProceeds(Databases.Db db, StateMode mode, State state, Operation op) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(state);
        ClusterOperationGuard<State, Event> first = ModeFixtures.guard(db, mode, new Owner(MS1, 1, ModeFixtures.job(f, id, MS1)));
        ClusterOperationGuard<State, Event> second = ModeFixtures.guard(db, mode, new Owner(MS3, 1, ModeFixtures.job(f, id, MS3)));
        OperationEntry<State, Event> one = enter(first, id, op, OperationEntry.Kind.PROCEEDED);
        OperationEntry<State, Event> two = second.transitToOperationState(id, op);
        if (mode == StateMode.COMPAT) {
            assertEquals(OperationEntry.Kind.PROCEEDED, two.kind(), "compat: both go ahead");
            return;
        }
        assertEquals(OperationEntry.Kind.LOST_RACE, two.kind(), "fenced: the first holds the cluster");
        assertTrue(two.message().contains("please retry"), two.message());
        // A failure has no row from either state: it only releases the cluster.
        assertTrue(first.complete(id, one, Outcome.FAILED), "the completion releases the cluster");
        assertEquals(state, f.state(id));
        enter(second, id, op, OperationEntry.Kind.PROCEEDED);
    }

    @ParameterizedTest(name = "{0} {1}: a start and a scale of a Created cluster exclude each other")
    @MethodSource("cases")
    void startVersusCreatedScale(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Created);
        ClusterOperationGuard<State, Event> scaler = ModeFixtures.guard(db, mode, new Owner(MS1, 1, ModeFixtures.job(f, id, MS1)));
        ClusterOperationGuard<State, Event> starter = ModeFixtures.guard(db, mode, new Owner(MS3, 1, ModeFixtures.job(f, id, MS3)));
        ScaleOperation<State, Event> scale = scaler.beginScale(id, ScaleKind.SCALE_UP, State.Created);
        assertEquals(ScaleEntry.Kind.SETTINGS_ONLY, scaler.enterScalingState(id, scale).kind());
        // The settings change is under way when the start arrives.
        OperationEntry<State, Event> start = starter.transitToOperationState(id, Operation.START);
        if (mode == StateMode.COMPAT) {
            assertEquals(OperationEntry.Kind.ENTERED, start.kind(), "compat: the start goes ahead during the scale");
            return;
        }
        assertEquals(OperationEntry.Kind.LOST_RACE, start.kind(), "fenced: the scale holds the Created cluster");
        assertEquals(ScaleEntry.Kind.SETTINGS_ONLY, scaler.enterScalingState(id, scale).kind());
        assertTrue(scaler.completeScale(id, scale, Outcome.SUCCEEDED));
        assertEquals(State.Created, f.state(id));
        enter(starter, id, Operation.START, OperationEntry.Kind.ENTERED);
        // The other order: a scale accepted in Created after a start took it fails.
        ScaleOperation<State, Event> late = scaler.beginScale(id, ScaleKind.SCALE_UP, State.Created);
        assertEquals(ScaleEntry.Kind.TAKEN_SINCE, scaler.enterScalingState(id, late).kind());
    }

    @ParameterizedTest(name = "{0} {1}: a deleted job row cannot make the scanner fail a live operation")
    @MethodSource("cases")
    void deletedJobRow(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        ModeFixtures.host(f, MS1, 1, "Up");
        long jobA = ModeFixtures.job(f, id, MS1);
        ClusterOperationGuard<State, Event> a = ModeFixtures.guard(db, mode, new Owner(MS1, 1, jobA));
        OperationEntry<State, Event> entryA = enter(a, id, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        f.update("DELETE FROM async_job WHERE id = " + jobA); // a lowered job.expire.minutes
        RecoveryResult<State> r = ModeFixtures.scanner(db, mode, Owner.of(MS3, 1)).recoverOrphanedOperationStates();
        if (mode == StateMode.COMPAT) {
            assertEquals(List.of(id), r.recoveredIds(), "compat: no job, so the live upgrade is failed");
            assertFalse(a.complete(id, entryA, Outcome.SUCCEEDED));
        } else {
            assertEquals(RecoveryResult.Kind.NOTHING_TO_RECOVER, r.kind(), "fenced: its owner is alive");
            assertTrue(a.complete(id, entryA, Outcome.SUCCEEDED));
            assertEquals(State.Running, f.state(id));
        }
    }

    @ParameterizedTest(name = "{0} {1}: a job without cluster id neither fails a live operation nor blocks recovery")
    @MethodSource("cases")
    void nullInstanceId(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long live = f.cluster(State.Running);
        long orphan = f.cluster(State.Running);
        ModeFixtures.host(f, MS1, 1, "Up");
        ModeFixtures.host(f, MS3, 1, "Up");
        // The live operation's job as an older server writes it: no instance_id, no cluster uuid.
        long jobA = f.job().cmdInfo("{\"size\":\"3\"}").insert();
        ClusterOperationGuard<State, Event> a = ModeFixtures.guard(db, mode, new Owner(MS1, 1, jobA));
        OperationEntry<State, Event> entryA = enter(a, live, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        // The orphan's server stopped and a peer saw it leave.
        ClusterOperationGuard<State, Event> o = ModeFixtures.guard(db, mode, new Owner(MS3, 1, ModeFixtures.job(f, orphan, MS3)));
        enter(o, orphan, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        f.update("UPDATE async_job SET job_status = 2 WHERE job_init_msid = " + MS3);
        f.update("UPDATE mshost SET state = 'Down' WHERE msid = " + MS3);
        RecoveryResult<State> r = ModeFixtures.scanner(db, mode, Owner.of(MS1, 1)).recoverOrphanedOperationStates();
        assertEquals(State.Upgrading, f.state(live), "nobody fails the live upgrade");
        if (mode == StateMode.COMPAT) {
            assertEquals(RecoveryResult.Kind.WAITED, r.kind(), "compat: the unknown job blocks every recovery");
            assertEquals(State.Upgrading, f.state(orphan));
        } else {
            assertEquals(List.of(orphan), r.recoveredIds(), "fenced: the orphan's owner is Down");
            assertEquals(State.Alert, f.state(orphan));
        }
        assertTrue(a.complete(live, entryA, Outcome.SUCCEEDED));
    }
    @ParameterizedTest(name = "{0} {1}: eight destroys at once, exactly one goes ahead in fenced mode")
    @MethodSource("cases")
    void concurrentDestroys(Databases.Db db, StateMode mode) throws Exception {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Destroying);
        int n = 8;
        CyclicBarrier start = new CyclicBarrier(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<OperationEntry.Kind>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ClusterOperationGuard<State, Event> g = ModeFixtures.guard(db, mode, new Owner(100 + i, 1, 1000 + i));
                results.add(pool.submit(() -> {
                    start.await();
                    return g.transitToOperationState(id, Operation.DESTROY).kind();
                }));
            }
            int proceeded = 0;
            for (Future<OperationEntry.Kind> r : results) {
                OperationEntry.Kind kind = r.get();
                proceeded += kind == OperationEntry.Kind.PROCEEDED ? 1 : 0;
                assertTrue(kind == OperationEntry.Kind.PROCEEDED || kind == OperationEntry.Kind.LOST_RACE, kind.name());
            }
            assertEquals(mode == StateMode.COMPAT ? n : 1, proceeded);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0} {1}: the Alert-to-Stopped reconciliation leaves a cluster a start holds")
    @MethodSource("cases")
    void reconciliationLeavesAStartingAlertCluster(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Alert, "CloudManaged", 1);
        f.vm(id, 7001, "Stopped", true);
        f.vm(id, 7002, "Stopped", false);
        ClusterOperationGuard<State, Event> start = ModeFixtures.guard(db, mode, new Owner(MS1, 1, ModeFixtures.job(f, id, MS1)));
        OperationEntry<State, Event> entry = enter(start, id, Operation.START, OperationEntry.Kind.PROCEEDED);
        // The start is bringing the VMs up when the scanner lists them all stopped.
        ReconcileResult<State> r = ModeFixtures.scanner(db, mode, Owner.of(MS3, 1)).reconcileAlertClusters(x -> true);
        if (mode == StateMode.COMPAT) {
            assertEquals(State.Stopped, r.moved().get(id), "compat: the scanner stops a cluster being started");
        } else {
            assertTrue(r.moved().isEmpty(), "fenced: the start holds it");
            assertEquals(State.Alert, f.state(id));
            assertTrue(start.complete(id, entry, Outcome.SUCCEEDED));
        }
    }
    @ParameterizedTest(name = "{0} {1}: failing what an operation holds (a worker's way out by an exception) releases it, once")
    @MethodSource("cases")
    void failingWhatIsHeldReleasesIt(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long upgraded = f.cluster(State.Running);
        long created = f.cluster(State.Created);
        ClusterOperationGuard<State, Event> worker = ModeFixtures.guard(db, mode, new Owner(MS1, 1, ModeFixtures.job(f, upgraded, MS1)));
        OperationEntry<State, Event> upgrade = enter(worker, upgraded, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        ClusterOperationGuard<State, Event> scaler = ModeFixtures.guard(db, mode, new Owner(MS1, 1, ModeFixtures.job(f, created, MS1)));
        ScaleOperation<State, Event> scale = scaler.beginScale(created, ScaleKind.SCALE_UP, State.Created);
        assertEquals(ScaleEntry.Kind.SETTINGS_ONLY, scaler.enterScalingState(created, scale).kind());

        assertTrue(worker.complete(upgraded, upgrade, Outcome.FAILED));
        assertFalse(worker.complete(upgraded, upgrade, Outcome.FAILED), "once: the token it held is gone");
        if (mode == StateMode.COMPAT) {
            assertEquals(State.Alert, f.state(upgraded));
            assertFalse(scaler.completeScale(created, scale, Outcome.FAILED), "compat: a settings-only scale holds nothing");
            assertEquals(State.Created, f.state(created));
            return;
        }
        assertEquals(ClusterRow.of(State.Alert, 2, null), ModeFixtures.fence(db, upgraded));
        assertTrue(scaler.completeScale(created, scale, Outcome.FAILED));
        assertEquals(ClusterRow.of(State.Created, 2, null), ModeFixtures.fence(db, created));
    }

    @ParameterizedTest(name = "{0} {1}: an operation that ended without releasing is recovered once its job ended")
    @MethodSource("cases")
    void ownerJobEndedWithoutRelease(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        ModeFixtures.host(f, MS1, 1, "Up");
        long jobA = ModeFixtures.job(f, id, MS1);
        ClusterOperationGuard<State, Event> a = ModeFixtures.guard(db, mode, new Owner(MS1, 1, jobA));
        OperationEntry<State, Event> entryA = enter(a, id, Operation.UPGRADE, OperationEntry.Kind.ENTERED);
        ClusterStateScanner<State, Event> scanner = ModeFixtures.scanner(db, mode, Owner.of(MS3, 1));
        RecoveryResult<State> live = scanner.recoverOrphanedOperationStates();
        assertEquals(List.of(), live.recoveredIds(), "a live operation with its job in progress is never touched");
        // Fenced, the core asks for the hosts (the cluster is held), not for the job it saw in progress.
        assertEquals(mode == StateMode.FENCED ? 3 : 2, live.statements(), "candidates, jobs (fenced: hosts)");
        // Its completion write failed (a database error), then the worker ended its job; the server stays up.
        f.update("UPDATE async_job SET job_status = 2 WHERE id = " + jobA);
        RecoveryResult<State> r = scanner.recoverOrphanedOperationStates();
        assertEquals(List.of(id), r.recoveredIds(), "the ended operation's cluster is recovered, server up or not");
        assertEquals(mode == StateMode.FENCED ? 5 : 3, r.statements(),
                "candidates, jobs (fenced: hosts, whether the owner's job ended), one compare-and-set");
        assertEquals(State.Alert, f.state(id));
        assertFalse(a.complete(id, entryA, Outcome.SUCCEEDED), "a late completion misses");
        assertEquals(State.Alert, f.state(id));
    }
}
