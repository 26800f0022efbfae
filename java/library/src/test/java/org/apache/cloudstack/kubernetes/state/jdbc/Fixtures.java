// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Profile;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.ClusterManagerRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobInsert;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * Test setup on CloudStack's tables: rows written by the kit ({@link CloudStackRows}), state set
 * directly with SQL (the only writes of {@code state} outside the DAO, as the brief allows for
 * setup), plus a few readers.
 */
final class Fixtures {
    /** CloudStack 4.22's table: the tests assert its rows (a failed scale goes to Alert; 4.23's goes to Running). */
    static final ClusterStateMachine<State, Event> MACHINE = ClusterStateMachine.bind(State.class, Event.class, Profile.CLOUDSTACK_4_22);
    static final String SCALE_CMD = ClusterCommandSet.SCALE;

    private final Databases.Db db;

    Fixtures(Databases.Db db) {
        this.db = db;
    }

    KubernetesClusterStateDao<State, Event> dao() {
        return dao(StateMode.COMPAT);
    }

    KubernetesClusterStateDao<State, Event> dao(StateMode mode) {
        return new KubernetesClusterStateDao<>(MACHINE.withMode(mode), db.source());
    }

    /** A guard of {@code mode} bound to {@code owner}. */
    ClusterOperationGuard<State, Event> guard(StateMode mode, Owner owner) {
        return new ClusterOperationGuard<>(dao(mode), owner);
    }

    /** The scanner of {@code mode} on management server {@code me}. */
    ClusterStateScanner<State, Event> scanner(StateMode mode, Owner me) {
        return new ClusterStateScanner<>(dao(mode), () -> me);
    }

    /** The kit that writes CloudStack's rows on this database. */
    CloudStackRows rows() {
        return new CloudStackRows(db.source()::open);
    }

    /** What CloudStack writes about its management servers, on this database. */
    ClusterManagerRows managementServers() {
        return new ClusterManagerRows(db.source()::open);
    }

    /** A CloudManaged cluster with 1 control node and 1 worker; returns its id. */
    long cluster(State state) throws SQLException {
        return cluster(state, "CloudManaged", 1);
    }

    long cluster(State state, String clusterType, int workers) throws SQLException {
        return rows().cluster(state.name()).type(clusterType).nodes(1, workers).insert();
    }

    String uuid(long clusterId) throws SQLException {
        return queryString("SELECT uuid FROM kubernetes_cluster WHERE id = " + clusterId);
    }

    /** The stored state (removed rows included), or null. */
    State state(long clusterId) throws SQLException {
        String s = queryString("SELECT state FROM kubernetes_cluster WHERE id = " + clusterId);
        return s == null ? null : State.valueOf(s.strip());
    }

    /** Test setup only: sets the state as another writer (or an operator) would. */
    void setState(long clusterId, State state) throws SQLException {
        update("UPDATE kubernetes_cluster SET state = '" + state.name() + "' WHERE id = " + clusterId);
    }

    void remove(long clusterId) throws SQLException {
        update("UPDATE kubernetes_cluster SET removed = CURRENT_TIMESTAMP WHERE id = " + clusterId);
    }

    /** An async job row to build: IN_PROGRESS, a KubernetesCluster scale, no instance_id, unless set. */
    JobInsert job() {
        return rows().job();
    }

    /** An IN_PROGRESS cluster job that records the cluster in instance_id (the upstream change's shape). */
    long jobWithInstanceId(long clusterId) throws SQLException {
        return job().shape(JobShape.UPSTREAM).cluster(clusterId, uuid(clusterId)).insert();
    }

    /** An IN_PROGRESS scale as 4.19.1-4.22 write it: instance_id NULL, the uuid in job_cmd_info. */
    long jobWithUuidOnly(long clusterId) throws SQLException {
        return job().shape(JobShape.CURRENT).cluster(clusterId, uuid(clusterId)).insert();
    }

    /** job_cmd_info of a scale of the cluster with this uuid, as {@code ApiServer.queueCommand} writes it. */
    static String cmdInfo(String uuid) {
        return JobShape.cmdInfo(SCALE_CMD, 0L, uuid);
    }

    /** A VM mapped to the cluster, a control or a worker node. */
    void vm(long clusterId, long vmId, String state, boolean control) throws SQLException {
        rows().vm(clusterId, vmId, state, control ? CloudStackRows.NodeRole.CONTROL : CloudStackRows.NodeRole.WORKER);
    }

    /** A VM expunged by hand: its row removed, its map row kept (CloudStack removes none of CKS's rows). */
    void removeVm(long vmId) throws SQLException {
        update("UPDATE vm_instance SET removed = CURRENT_TIMESTAMP WHERE id = " + vmId);
    }

    void setVmState(long vmId, String state) throws SQLException {
        update("UPDATE vm_instance SET state = '" + state + "' WHERE id = " + vmId);
    }

    /** The SQL of "now" in CloudStack's time base on this database. */
    String now() throws SQLException {
        try (Connection c = db.connect()) {
            return DatabaseClock.utcNow(c);
        }
    }

    long count(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    int update(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            return st.executeUpdate(sql);
        }
    }

    String queryString(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
