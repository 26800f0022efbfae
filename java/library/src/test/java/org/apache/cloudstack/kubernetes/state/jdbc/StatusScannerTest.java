// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The status scanner (upstream KubernetesClusterManagerImplTest's scenarios), on real databases. */
class StatusScannerTest {

    /** This management server, as the fenced scanner holds a cluster between two reconcile steps. */
    private static final Owner SCANNER = Owner.of(9, 1);
    private static final Owner USER = new Owner(2, 1, 77);

    static Stream<Arguments> dbs() {
        return ModeFixtures.allDbsAndModes();
    }

    private static ClusterStateScanner<State, Event> scanner(Databases.Db db, StateMode mode,
            StatementCounter counter) {
        return new ClusterStateScanner<>(new Fixtures(db).dao(mode), counter, () -> SCANNER);
    }

    /**
     * The statements a recovery pass reads before its writes, with no held candidate: the same in both
     * modes (the core asks for mshost and the owners' jobs only when a candidate is held).
     */
    private static int reads(StateMode mode, int compat) {
        return compat;
    }

    @ParameterizedTest(name = "{0} {1}: recovery fails only operations with no job")
    @MethodSource("dbs")
    void recoveryFailsOnlyOperationsWithNoJob(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long orphanScaling = f.cluster(State.Scaling);
        long orphanUpgrading = f.cluster(State.Upgrading);
        long withJob = f.cluster(State.Upgrading);
        f.jobWithInstanceId(withJob);
        long withUuidJob = f.cluster(State.Scaling);
        f.jobWithUuidOnly(withUuidJob); // older server: instance_id NULL, resolved from job_cmd_info
        long withRemovedJobRow = f.cluster(State.Importing);
        f.job().instance(withRemovedJobRow).removed(true).insert();
        long finishedJobOnly = f.cluster(State.RemovingNodes);
        f.job().status(2).instance(finishedJobOnly).removed(true).insert(); // FAILED by a restart
        long running = f.cluster(State.Running);
        long alert = f.cluster(State.Alert);
        long removed = f.cluster(State.Stopping);
        f.remove(removed);
        long external = f.cluster(State.Scaling, "ExternalManaged", 1);
        f.job().instanceType("VirtualMachine").instance(orphanScaling).cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").insert();

        StatementCounter counter = new StatementCounter(db.source());
        RecoveryResult<State> result = scanner(db, mode, counter).recoverOrphanedOperationStates();

        assertEquals(RecoveryResult.Kind.RECOVERED, result.kind());
        assertEquals(Set.of(orphanScaling, orphanUpgrading, withJob, withUuidJob, withRemovedJobRow, finishedJobOnly),
                Set.copyOf(result.candidateIds()));
        assertEquals(Set.of(orphanScaling, orphanUpgrading, finishedJobOnly), Set.copyOf(result.recoveredIds()));
        assertEquals(List.of(), result.missedIds());
        assertEquals(State.Alert, f.state(orphanScaling));
        assertEquals(State.Alert, f.state(orphanUpgrading));
        // CloudStack's table fails a removal of nodes back to Running.
        assertEquals(State.Running, f.state(finishedJobOnly));
        assertEquals(State.Upgrading, f.state(withJob));
        assertEquals(State.Scaling, f.state(withUuidJob));
        assertEquals(State.Importing, f.state(withRemovedJobRow));
        assertEquals(State.Running, f.state(running));
        assertEquals(State.Alert, f.state(alert));
        assertEquals(State.Stopping, f.state(removed));
        assertEquals(State.Scaling, f.state(external), "only CloudManaged clusters");
        // candidates + jobs + uuid resolution + one compare-and-set per orphan
        assertEquals(reads(mode, 3) + 3, result.statements());
        assertEquals(result.statements(), counter.count());
    }

    @ParameterizedTest(name = "{0} {1}: recovery waits while a job of unknown cluster is in progress")
    @MethodSource("dbs")
    void waitsOnAJobOfUnknownCluster(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long orphan = f.cluster(State.Scaling);
        long unknown = f.job().cmdInfo("{\"response\":\"json\"}").insert();
        StatementCounter counter = new StatementCounter(db.source());

        RecoveryResult<State> result = scanner(db, mode, counter).recoverOrphanedOperationStates();
        assertEquals(RecoveryResult.Kind.WAITED, result.kind());
        assertEquals(List.of(unknown), result.unknownJobIds());
        assertEquals(List.of(), result.recoveredIds());
        assertEquals(State.Scaling, f.state(orphan));
        assertEquals(reads(mode, 2), result.statements(), "no uuid to resolve, no compare-and-set");

        // Once that job ends, the orphan is recovered.
        f.update("UPDATE async_job SET job_status = 2 WHERE id = " + unknown);
        RecoveryResult<State> next = scanner(db, mode, counter).recoverOrphanedOperationStates();
        assertEquals(List.of(orphan), next.recoveredIds());
        assertEquals(State.Alert, f.state(orphan));
    }

    @ParameterizedTest(name = "{0} {1}: malformed job_cmd_info or an unknown uuid makes the scanner wait, never throw")
    @MethodSource("dbs")
    void malformedJobCmdInfoNeverThrows(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long orphan = f.cluster(State.Stopping);
        List<Long> jobs = new ArrayList<>();
        for (String info : new String[] {null, "", "{", "{\"id\":", "not json", "{\"id\":42}", "[\"id\",\"x\"]",
            "{\"id\":\"no-such-cluster-uuid\"}", "{\"ctxDetails\":\"{\\\"id\\\":\\\"x\\\"}\"}"}) {
            jobs.add(f.job().cmdInfo(info).insert());
        }
        // A job that records no resource type at all, of a CKS cluster command: counted too.
        jobs.add(f.job().instanceType(null).cmdInfo("{\"id\":\"also-unknown\"}").insert());
        RecoveryResult<State> result = scanner(db, mode, new StatementCounter(db.source())).recoverOrphanedOperationStates();
        assertEquals(RecoveryResult.Kind.WAITED, result.kind());
        assertEquals(jobs, result.unknownJobIds());
        assertEquals(State.Stopping, f.state(orphan));
        assertEquals(reads(mode, 3), result.statements(), "jobs + one uuid query for all of them");
    }

    @ParameterizedTest(name = "{0} {1}: recovery skips the job lookup when no cluster is in an operation's state")
    @MethodSource("dbs")
    void skipsTheJobLookupWithNoCandidate(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        for (State s : new State[] {State.Created, State.Running, State.Stopped, State.Alert, State.Error,
            State.Destroyed, State.Destroying}) {
            f.cluster(s);
        }
        f.job().cmdInfo("{}").insert(); // would make it wait
        StatementCounter counter = new StatementCounter(db.source());
        RecoveryResult<State> result = scanner(db, mode, counter).recoverOrphanedOperationStates();
        assertEquals(RecoveryResult.Kind.NO_CANDIDATE, result.kind());
        assertTrue(result.jobLookupSkipped());
        assertEquals(1, counter.count(), counter.statements().toString());
        assertEquals(0, counter.countContaining("async_job"));
        assertEquals(1, result.statements());
    }

    @ParameterizedTest(name = "{0} {1}: recovery statements do not grow with the number of clusters")
    @MethodSource("dbs")
    void statementsDoNotGrowWithClusters(Databases.Db db, StateMode mode) throws SQLException {
        int[] sizes = {3, 60};
        int[] counts = new int[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            Fixtures f = ModeFixtures.reset(db, mode);
            for (int n = 0; n < sizes[i]; n++) {
                long busy = f.cluster(n % 2 == 0 ? State.Scaling : State.Upgrading);
                if (n % 3 == 0) {
                    f.jobWithUuidOnly(busy);
                } else {
                    f.jobWithInstanceId(busy);
                }
                f.cluster(State.Running);
            }
            long orphanA = f.cluster(State.Importing);
            long orphanB = f.cluster(State.Recovering);
            StatementCounter counter = new StatementCounter(db.source());
            RecoveryResult<State> result = scanner(db, mode, counter).recoverOrphanedOperationStates();
            assertEquals(List.of(orphanA, orphanB), result.recoveredIds());
            counts[i] = counter.count();
            System.out.printf("%s recovery pass over %d busy + %d running + 2 orphan clusters: %d statements%n", db,
                    sizes[i], sizes[i], counts[i]);
        }
        assertEquals(reads(mode, 3) + 2, counts[0], "clusters read, jobs, uuids, one compare-and-set per orphan");
        assertEquals(counts[0], counts[1]);
    }

    @ParameterizedTest(name = "{0} {1}: recovery leaves a cluster whose operation ended between the read and the update")
    @MethodSource("dbs")
    void leavesAClusterWhoseOperationEnded(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Scaling);
        long job = f.jobWithInstanceId(id);
        f.update("UPDATE async_job SET job_status = 1 WHERE id = " + job); // the job just finished...
        ClusterStateScanner<State, Event> scanner = scanner(db, mode, new StatementCounter(db.source()));
        scanner.setListener(new ScanListener() {
            @Override
            public void jobsRead() {
                // ...and its worker completes the operation before the scanner's update.
                assertTrue(new Fixtures(db).dao().updateState(id, State.Scaling, Event.OperationSucceeded));
            }
        });
        RecoveryResult<State> result = scanner.recoverOrphanedOperationStates();
        assertEquals(RecoveryResult.Kind.RECOVERED, result.kind());
        assertEquals(List.of(), result.recoveredIds());
        assertEquals(List.of(id), result.missedIds());
        assertEquals(State.Running, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: recovery leaves a cluster that gained a job after it was read")
    @MethodSource("dbs")
    void leavesAClusterThatGainedAJob(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Starting);
        long other = f.cluster(State.Stopping);
        ClusterStateScanner<State, Event> scanner = scanner(db, mode, new StatementCounter(db.source()));
        scanner.setListener(new ScanListener() {
            @Override
            public void candidatesRead() {
                try { // a new operation's job is written IN_PROGRESS after the scanner read the clusters
                    f.jobWithUuidOnly(id);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        RecoveryResult<State> result = scanner.recoverOrphanedOperationStates();
        assertEquals(List.of(other), result.recoveredIds());
        assertEquals(State.Starting, f.state(id));
        assertEquals(State.Alert, f.state(other));
    }

    @ParameterizedTest(name = "{0} {1}: the listener sees every point of a pass, before/after paired per orphan")
    @MethodSource("dbs")
    void listenerSeesEveryPoint(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long a = f.cluster(State.Upgrading);
        long b = f.cluster(State.RemovingNodes);
        List<String> events = new ArrayList<>();
        ClusterStateScanner<State, Event> scanner = scanner(db, mode, new StatementCounter(db.source()));
        scanner.setListener(new ScanListener() {
            @Override
            public void candidatesRead() {
                events.add("candidates");
            }

            @Override
            public void jobsRead() {
                events.add("jobs");
            }

            @Override
            public void beforeRecovery(long clusterId) {
                events.add("before " + (clusterId == a ? "a" : "b"));
                if (clusterId == b) { // its operation completes at the last moment
                    assertTrue(new Fixtures(db).dao().updateState(b, State.RemovingNodes, Event.OperationSucceeded));
                }
            }

            @Override
            public void afterRecovery(long clusterId, boolean hit) {
                events.add("after " + (clusterId == a ? "a" : "b") + " " + hit);
            }

            @Override
            public void reconcileListed() {
                events.add("listed");
            }
        });
        RecoveryResult<State> result = scanner.recoverOrphanedOperationStates();
        assertEquals(List.of(a), result.recoveredIds());
        assertEquals(List.of(b), result.missedIds());
        assertEquals(State.Alert, f.state(a));
        assertEquals(State.Running, f.state(b));
        scanner.reconcileAlertClusters(x -> false);
        assertEquals(List.of("candidates", "jobs", "before a", "after a true", "before b", "after b false", "listed"),
                events);
    }

    @ParameterizedTest(name = "{0} {1}: recovery sends a Starting cluster to Alert")
    @MethodSource("dbs")
    void sendsAStartingClusterToAlert(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Starting);
        RecoveryResult<State> result = scanner(db, mode, new StatementCounter(db.source())).recoverOrphanedOperationStates();
        assertEquals(List.of(id), result.recoveredIds());
        assertEquals(State.Alert, f.state(id));
    }

    @ParameterizedTest(name = "{0} {1}: every orphan state is failed by the table (Alert; nodes: Running), one recorded change each")
    @MethodSource("dbs")
    void everyOrphanStateFailsByTheTable(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        List<Long> ids = new ArrayList<>();
        for (State s : Fixtures.MACHINE.orphanStates()) {
            ids.add(f.cluster(s));
        }
        KubernetesClusterStateDao<State, Event> dao = f.dao(mode);
        RecoveryResult<State> result = new ClusterStateScanner<>(dao, () -> SCANNER)
                .recoverOrphanedOperationStates();
        assertEquals(Set.copyOf(ids), Set.copyOf(result.recoveredIds()));
        // CloudStack's table: an add or removal of nodes fails back to Running, every other to Alert.
        Set<State> backToRunning = Set.of(State.Importing, State.RemovingNodes);
        List<State> orphans = List.copyOf(Fixtures.MACHINE.orphanStates());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(backToRunning.contains(orphans.get(i)) ? State.Running : State.Alert, f.state(ids.get(i)),
                    orphans.get(i).name());
        }
        assertEquals(ids.size() - 2, f.count("SELECT COUNT(*) FROM cks_state_history WHERE to_state = 'Alert'"));
        assertEquals(2, f.count("SELECT COUNT(*) FROM cks_state_history WHERE to_state = 'Running'"));
    }

    // ---- Alert reconciliation and fault detection ----

    @ParameterizedTest(name = "{0} {1}: Alert with all VMs stopped goes to Stopped through Stopping")
    @MethodSource("dbs")
    void alertAllStoppedGoesToStopped(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Alert);
        f.vm(id, 1001, "Stopped", true);
        f.vm(id, 1002, "Stopped", false);
        StatementCounter counter = new StatementCounter(db.source());
        KubernetesClusterStateDao<State, Event> dao = f.dao(mode);
        ReconcileResult<State> result = new ClusterStateScanner<>(dao, counter, () -> SCANNER)
                .reconcileAlertClusters(x -> {
            throw new AssertionError("health is only asked when all VMs run");
        });
        assertEquals(Map.of(id, State.Stopped), result.moved());
        assertEquals(State.Stopped, f.state(id));
        assertEquals(2, f.count("SELECT COUNT(*) FROM cks_state_history WHERE cluster_id = " + id));
        assertEquals(1, f.count("SELECT COUNT(*) FROM cks_state_history WHERE cluster_id = " + id
                + " AND from_state = 'Alert' AND to_state = 'Stopping'"));
        assertEquals(2, result.steps());
        assertEquals(1 + 2, counter.count(), "listing + one update per step");
    }

    @ParameterizedTest(name = "{0} {1}: Alert-to-Stopped reconciliation never stops a cluster a user has started since")
    @MethodSource("dbs")
    void neverStopsAClusterAUserStartedSince(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Alert);
        f.vm(id, 1001, "Stopped", true);
        f.vm(id, 1002, "Stopped", false);
        ClusterStateScanner<State, Event> scanner = scanner(db, mode, new StatementCounter(db.source()));
        ClusterOperationGuard<State, Event> user = f.guard(mode, USER);
        scanner.setListener(new ScanListener() {
            @Override
            public void reconcileListed() {
                // Between the listing and the update, the user stops the Alert cluster and starts it again.
                OperationEntry<State, Event> stop = user.transitToOperationState(id,
                        org.apache.cloudstack.kubernetes.state.Operation.STOP);
                assertTrue(stop.mayProceed());
                assertTrue(user.complete(id, stop, org.apache.cloudstack.kubernetes.state.Outcome.SUCCEEDED));
                assertTrue(user.transitToOperationState(id, org.apache.cloudstack.kubernetes.state.Operation.START)
                        .mayProceed());
            }
        });
        ReconcileResult<State> result = scanner.reconcileAlertClusters(x -> true);
        assertEquals(List.of(id), result.missedIds());
        assertEquals(Map.of(), result.moved());
        assertEquals(State.Starting, f.state(id), "the user's start is not stopped");
    }

    @ParameterizedTest(name = "{0} {1}: Alert with all VMs running: healthy -> Running through Recovering, unhealthy left")
    @MethodSource("dbs")
    void alertAllRunning(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long healthy = f.cluster(State.Alert);
        f.vm(healthy, 2001, "Running", true);
        f.vm(healthy, 2002, "Running", false);
        long sick = f.cluster(State.Alert);
        f.vm(sick, 2003, "Running", true);
        f.vm(sick, 2004, "Running", false);
        long mixed = f.cluster(State.Alert);
        f.vm(mixed, 2005, "Running", true);
        f.vm(mixed, 2006, "Stopped", false);
        long incomplete = f.cluster(State.Alert, "CloudManaged", 2); // expects 3 VMs, one expunged by hand
        f.vm(incomplete, 2007, "Running", true);
        f.vm(incomplete, 2008, "Running", false);
        f.vm(incomplete, 2011, "Running", false);
        f.removeVm(2011);
        long scaledDown = f.cluster(State.Alert, "CloudManaged", 2); // expects 3, a worker's row gone with its VM
        f.vm(scaledDown, 2012, "Running", true);
        f.vm(scaledDown, 2013, "Running", false);
        long recovering = f.cluster(State.Recovering); // another pass's recovery: never completed here
        f.vm(recovering, 2009, "Running", true);
        f.vm(recovering, 2010, "Running", false);
        List<Long> asked = new ArrayList<>();
        StatementCounter counter = new StatementCounter(db.source());
        ReconcileResult<State> result = scanner(db, mode, counter).reconcileAlertClusters(id -> {
            asked.add(id);
            return id == healthy;
        });
        assertEquals(List.of(healthy, sick, scaledDown), asked, "every row a running VM: probed, fewer rows or not");
        assertEquals(Map.of(healthy, State.Running), result.moved());
        assertEquals(State.Running, f.state(healthy));
        assertEquals(State.Alert, f.state(sick));
        assertEquals(State.Alert, f.state(mixed));
        assertEquals(State.Alert, f.state(incomplete));
        assertEquals(State.Recovering, f.state(recovering));
        assertEquals(State.Alert, f.state(scaledDown), "its probe said no");
        assertEquals(5, result.listed());
        assertEquals(1 + 2, counter.count(), "listing + two compare-and-sets");
    }

    @ParameterizedTest(name = "{0} {1}: no connection is held while a cluster is probed, and none opened when nothing moves")
    @MethodSource("dbs")
    void noConnectionIsHeldWhileAClusterIsProbed(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Alert);
        f.vm(id, 2101, "Running", true);
        f.vm(id, 2102, "Running", false);
        AtomicInteger open = new AtomicInteger();
        AtomicInteger opened = new AtomicInteger();
        ConnectionSource counting = () -> {
            Connection real = db.source().open();
            open.incrementAndGet();
            opened.incrementAndGet();
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("close") && !real.isClosed()) {
                            open.decrementAndGet();
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
        ClusterStateScanner<State, Event> scanner = new ClusterStateScanner<>(new Fixtures(db).dao(mode), counting,
                () -> SCANNER);
        List<Integer> heldWhileProbing = new ArrayList<>();
        ReconcileResult<State> unhealthy = scanner.reconcileAlertClusters(x -> heldWhileProbing.add(open.get()) && false);
        assertEquals(List.of(0), heldWhileProbing);
        assertEquals(Map.of(), unhealthy.moved());
        assertEquals(1, opened.get(), "the listing's only: nothing to write");
        ReconcileResult<State> healthy = scanner.reconcileAlertClusters(x -> heldWhileProbing.add(open.get()));
        assertEquals(List.of(0, 0), heldWhileProbing);
        assertEquals(Map.of(id, State.Running), healthy.moved());
        assertEquals(0, open.get(), "every connection closed");
    }

    @ParameterizedTest(name = "{0} {1}: a recovery is completed only by the pass that started it")
    @MethodSource("dbs")
    void recoveryCompletedOnlyByThePassThatStartedIt(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long id = f.cluster(State.Alert);
        f.vm(id, 3001, "Running", true);
        f.vm(id, 3002, "Running", false);
        ClusterStateScanner<State, Event> scanner = scanner(db, mode, new StatementCounter(db.source()));
        scanner.setListener(new ScanListener() {
            @Override
            public void reconcileListed() {
                // Another management server's pass starts the recovery first.
                assertTrue(new Fixtures(db).dao().updateState(id, State.Alert, Event.RecoveryRequested));
            }
        });
        ReconcileResult<State> result = scanner.reconcileAlertClusters(x -> true);
        assertEquals(List.of(id), result.missedIds());
        assertEquals(State.Recovering, f.state(id), "this pass did not start it, so it does not complete it");
    }

    @ParameterizedTest(name = "{0} {1}: fault detection: a Running cluster with a stopped or missing VM goes to Alert")
    @MethodSource("dbs")
    void faultDetection(Databases.Db db, StateMode mode) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long ok = f.cluster(State.Running);
        f.vm(ok, 4001, "Running", true);
        f.vm(ok, 4002, "Running", false);
        long faulty = f.cluster(State.Running);
        f.vm(faulty, 4003, "Running", true);
        f.vm(faulty, 4004, "Stopped", false);
        long missingVm = f.cluster(State.Running);
        f.vm(missingVm, 4005, "Running", true);
        f.vm(missingVm, 4006, "Running", false);
        f.update("UPDATE vm_instance SET removed = CURRENT_TIMESTAMP WHERE id = 4006");
        long external = f.cluster(State.Running, "ExternalManaged", 1);
        ReconcileResult<State> result = scanner(db, mode, new StatementCounter(db.source())).reconcileAlertClusters(x -> {
            throw new AssertionError("a Running cluster is judged on its VMs only");
        });
        assertEquals(State.Running, f.state(ok));
        assertEquals(State.Alert, f.state(faulty));
        assertEquals(State.Alert, f.state(missingVm));
        assertEquals(State.Running, f.state(external));
        assertEquals(Map.of(faulty, State.Alert, missingVm, State.Alert), result.moved());
    }

    @ParameterizedTest(name = "{0} {1}: reconciliation statements do not grow with the number of clusters")
    @MethodSource("dbs")
    void reconcileStatementsDoNotGrow(Databases.Db db, StateMode mode) throws SQLException {
        int[] sizes = {2, 40};
        int[] counts = new int[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            Fixtures f = ModeFixtures.reset(db, mode);
            long vm = 5000;
            for (int n = 0; n < sizes[i]; n++) {
                long running = f.cluster(State.Running);
                f.vm(running, vm++, "Running", true);
                f.vm(running, vm++, "Running", false);
                long mixed = f.cluster(State.Alert);
                f.vm(mixed, vm++, "Running", true);
                f.vm(mixed, vm++, "Stopped", false);
            }
            long stopped = f.cluster(State.Alert);
            f.vm(stopped, vm++, "Stopped", true);
            f.vm(stopped, vm++, "Stopped", false);
            StatementCounter counter = new StatementCounter(db.source());
            ReconcileResult<State> result = scanner(db, mode, counter).reconcileAlertClusters(x -> true);
            assertEquals(Map.of(stopped, State.Stopped), result.moved());
            counts[i] = counter.count();
            System.out.printf("%s reconcile pass over %d clusters (one moved): %d statements%n", db,
                    2 * sizes[i] + 1, counts[i]);
        }
        assertEquals(1 + 2, counts[0]);
        assertEquals(counts[0], counts[1]);
    }
}
