// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Setup of the tests that run in both modes: the schema a mode needs (fenced: migrated), mshost
 * rows, each mode's DAO, guard and scanner.
 */
final class ModeFixtures {
    private ModeFixtures() {
    }

    static KubernetesClusterStateDao<State, Event> dao(Databases.Db db) {
        return new Fixtures(db).dao(StateMode.FENCED);
    }

    static ClusterOperationGuard<State, Event> guard(Databases.Db db, StateMode mode, Owner owner) {
        return new Fixtures(db).guard(mode, owner);
    }

    static ClusterStateScanner<State, Event> scanner(Databases.Db db, StateMode mode, Owner me) {
        return new Fixtures(db).scanner(mode, me);
    }

    /** Every (database, mode) pair: one database case each (REPEATABLE READ, found rows). */
    static Stream<Arguments> dbsAndModes() {
        return Databases.perDatabase().flatMap(db -> Stream.of(Arguments.of(db, StateMode.COMPAT),
                Arguments.of(db, StateMode.FENCED)));
    }

    /** Every (database case, mode) pair. */
    static Stream<Arguments> allDbsAndModes() {
        return Databases.all().flatMap(db -> Stream.of(Arguments.of(db, StateMode.COMPAT),
                Arguments.of(db, StateMode.FENCED)));
    }

    /** A clean database for {@code mode}: fenced on the migrated schema, compat on whatever it is (both run there). */
    static Fixtures reset(Databases.Db db, StateMode mode) throws SQLException {
        if (mode == StateMode.FENCED) {
            resetMigrated(db);
        } else {
            db.reset();
        }
        return new Fixtures(db);
    }

    /** A clean database with the fenced columns and trigger (both modes run on it, as in a rolling upgrade). */
    static void resetMigrated(Databases.Db db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            // DDL only when needed: other test classes share the database.
            if (CloudStackSchema.fenceColumns(c) != CloudStackSchema.FenceColumns.ALL) {
                CloudStackSchema.migrateUp(c);
            }
        }
    }

    /** An mshost row with a heartbeat now (database time). */
    static void host(Fixtures f, long msid, long runid, String state) throws SQLException {
        f.rows().mshost(msid).runid(runid).state(state).insert();
    }

    /** What CloudStack does when a server starts again: new runid, its IN_PROGRESS jobs FAILED. */
    static void restart(Fixtures f, long msid, long newRunid) throws SQLException {
        f.managementServers().started(msid, newRunid);
    }

    /** An IN_PROGRESS job of {@code msid} on the cluster (instance_id recorded). */
    static long job(Fixtures f, long clusterId, long msid) throws SQLException {
        long id = f.jobWithInstanceId(clusterId);
        f.update("UPDATE async_job SET job_init_msid = " + msid + ", job_executing_msid = " + msid + " WHERE id = " + id);
        return id;
    }

    static ClusterRow<State> fence(Databases.Db db, long clusterId) {
        return dao(db).findRow(clusterId);
    }
}
