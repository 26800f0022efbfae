// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scanner's VM rule as upstream has it (isClusterVMsInDesiredState): a cluster's VMs are in a
 * state when no fewer are mapped than the cluster's total node count (control + worker + etcd,
 * as KubernetesClusterVO.getTotalNodeCount() counts from CloudStack 4.21 on) and every mapped VM
 * is in it (etcd nodes count, and nodes added with add-nodes, which add to node_count); a Running
 * cluster with more VMs than that is a fault (a scale that stopped after it made its VMs).
 * Both modes, H2 and MariaDB.
 */
class VmRuleTest {
    private static final Owner SCANNER = Owner.of(9, 1);

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> dbsAndModes() {
        return ModeFixtures.dbsAndModes();
    }

    /** A cluster with one control node, {@code workers} workers and {@code etcd} etcd nodes, and these VMs. */
    private static long cluster(Fixtures f, State state, int workers, int etcd, long firstVm, String... vmStates)
            throws SQLException {
        long id = f.cluster(state, "CloudManaged", workers);
        f.update("UPDATE kubernetes_cluster SET etcd_node_count = " + etcd + " WHERE id = " + id);
        for (int i = 0; i < vmStates.length; i++) {
            f.vm(id, firstVm + i, vmStates[i], i == 0);
        }
        return id;
    }

    @ParameterizedTest(name = "{0} {1}: more VMs than nodes: a Running cluster is a fault, an Alert one whose VMs all stopped is reconciled")
    @MethodSource("dbsAndModes")
    void moreVmsThanNodesMakeARunningClusterAFault(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        // A scale that stopped after it made its VMs (4.23 fails an orphaned scale back to Running).
        long surplus = cluster(f, State.Running, 1, 0, 6001, "Running", "Running", "Running");
        // A node added with add-nodes: KubernetesClusterAddWorker.updateKubernetesCluster adds it to node_count.
        long added = cluster(f, State.Running, 2, 0, 6021, "Running", "Running", "Running");
        f.update("UPDATE kubernetes_cluster_vm_map SET external_node = 1 WHERE vm_id = 6023");
        long alertStopped = cluster(f, State.Alert, 1, 0, 6011, "Stopped", "Stopped", "Stopped");
        ReconcileResult<State> r = ModeFixtures.scanner(db, mode, SCANNER).reconcileAlertClusters(x -> true);
        assertEquals(State.Alert, f.state(surplus), "more VMs than its size: for the Alert pass to judge");
        assertEquals(State.Running, f.state(added), "a healthy cluster with an added node is no fault");
        assertEquals(State.Stopped, f.state(alertStopped), "an Alert cluster whose VMs all stopped is reconciled");
        assertEquals(Map.of(surplus, State.Alert, alertStopped, State.Stopped), r.moved());
    }

    @ParameterizedTest(name = "{0} {1}: fewer VMs than nodes, or one VM out of the state, do not")
    @MethodSource("dbsAndModes")
    void fewerVmsOrOneOutOfTheStateAreNotDesired(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long fewer = cluster(f, State.Running, 2, 0, 6101, "Running", "Running");
        long oneOut = cluster(f, State.Running, 1, 0, 6111, "Running", "Stopped", "Running");
        long alertFewer = cluster(f, State.Alert, 2, 0, 6121, "Stopped", "Stopped");
        long alertOneOut = cluster(f, State.Alert, 1, 0, 6131, "Stopped", "Stopped", "Running");
        ReconcileResult<State> r = ModeFixtures.scanner(db, mode, SCANNER).reconcileAlertClusters(x -> true);
        assertEquals(State.Alert, f.state(fewer));
        assertEquals(State.Alert, f.state(oneOut));
        assertEquals(State.Alert, f.state(alertFewer));
        assertEquals(State.Alert, f.state(alertOneOut));
        assertEquals(Map.of(fewer, State.Alert, oneOut, State.Alert), r.moved());
    }

    @ParameterizedTest(name = "{0} {1}: etcd nodes count, and so do nodes added with add-nodes")
    @MethodSource("dbsAndModes")
    void etcdNodesAndAddedNodesCount(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        // 1 control + 1 worker + 1 etcd = 3 nodes.
        long etcdShort = cluster(f, State.Running, 1, 1, 6201, "Running", "Running");
        long etcdFull = cluster(f, State.Running, 1, 1, 6211, "Running", "Running", "Running");
        f.update("UPDATE kubernetes_cluster_vm_map SET etcd_node = 1 WHERE vm_id = 6213");
        // An added (external) node counts in node_count (KubernetesClusterAddWorker.updateKubernetesCluster).
        long etcdPlusAdded = cluster(f, State.Running, 2, 1, 6221, "Running", "Running", "Running", "Running");
        f.update("UPDATE kubernetes_cluster_vm_map SET external_node = 1 WHERE vm_id = 6224");
        long alertEtcdStopped = cluster(f, State.Alert, 1, 1, 6231, "Stopped", "Stopped", "Stopped");
        long alertEtcdShort = cluster(f, State.Alert, 1, 1, 6241, "Stopped", "Stopped");
        ModeFixtures.scanner(db, mode, SCANNER).reconcileAlertClusters(x -> true);
        assertEquals(State.Alert, f.state(etcdShort), "2 VMs for 3 nodes");
        assertEquals(State.Running, f.state(etcdFull));
        assertEquals(State.Running, f.state(etcdPlusAdded));
        assertEquals(State.Stopped, f.state(alertEtcdStopped));
        assertEquals(State.Alert, f.state(alertEtcdShort));
    }

    @ParameterizedTest(name = "{0} {1}: a schema without etcd nodes (4.20 and older) counts control + worker")
    @MethodSource("dbsAndModes")
    void aSchemaWithoutEtcdNodesCountsControlAndWorkers(Databases.Db db, StateMode mode) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        f.update("ALTER TABLE kubernetes_cluster DROP COLUMN etcd_node_count");
        try {
            long full = f.cluster(State.Running, "CloudManaged", 1);
            f.vm(full, 6301, "Running", true);
            f.vm(full, 6302, "Running", false);
            long shortOne = f.cluster(State.Running, "CloudManaged", 1);
            f.vm(shortOne, 6311, "Running", true);
            ModeFixtures.scanner(db, mode, SCANNER).reconcileAlertClusters(x -> true);
            assertEquals(State.Running, f.state(full));
            assertEquals(State.Alert, f.state(shortOne));
        } finally {
            f.update("ALTER TABLE kubernetes_cluster ADD COLUMN etcd_node_count bigint unsigned DEFAULT NULL"); // as CloudStack's 4.21 upgrade adds it
        }
    }
}
