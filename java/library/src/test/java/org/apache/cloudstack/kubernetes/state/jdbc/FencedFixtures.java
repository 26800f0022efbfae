package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.Fence;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.Event;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.State;
import org.junit.jupiter.params.provider.Arguments;

/** Setup for the fenced-mode tests: the migrated schema, mshost rows, both modes' guard and scanner. */
final class FencedFixtures {
    /** The mode a scripted interleaving runs in. */
    enum Mode {
        COMPAT, FENCED;

        OperationGuard<State, Event> guard(Databases.Db db, Owner owner) {
            if (this == COMPAT) {
                return new ClusterOperationGuard<>(new Fixtures(db).dao()).withOwner(owner);
            }
            return new FencedOperationGuard<>(dao(db), owner);
        }

        StatusScanner<State, Event> scanner(Databases.Db db, Owner me) {
            if (this == COMPAT) {
                return new KubernetesClusterStatusScanner<>(new Fixtures(db).dao());
            }
            return new FencedStatusScanner<>(dao(db), () -> me);
        }
    }

    private FencedFixtures() {
    }

    static FencedClusterStateDao<State, Event> dao(Databases.Db db) {
        return new FencedClusterStateDao<>(Fixtures.MACHINE, db.source());
    }

    /** Every (database, mode) pair: one database case each (REPEATABLE READ, found rows). */
    static Stream<Arguments> dbsAndModes() {
        return Databases.perDatabase().flatMap(db -> Stream.of(Arguments.of(db, Mode.COMPAT),
                Arguments.of(db, Mode.FENCED)));
    }

    /** A clean database with the fenced columns and trigger (both modes run on it, as in a rolling upgrade). */
    static void resetMigrated(Databases.Db db) throws SQLException {
        db.reset();
        try (Connection c = db.connect()) {
            // DDL only when needed: other test classes share the database.
            if (FencedSchema.columns(c) != FencedSchema.Columns.ALL) {
                FencedSchema.migrateUp(c);
            }
        }
    }

    /** An mshost row with a heartbeat now (database time). */
    static void host(Fixtures f, long msid, long runid, String state) throws SQLException {
        f.update("INSERT INTO mshost (msid, runid, name, state, last_update) VALUES (" + msid + ", " + runid
                + ", 'ms-" + msid + "', '" + state + "', NOW())");
    }

    /** What CloudStack does when a server starts again: new runid, its IN_PROGRESS jobs FAILED. */
    static void restart(Fixtures f, long msid, long newRunid) throws SQLException {
        f.update("UPDATE mshost SET runid = " + newRunid + ", state = 'Up', last_update = NOW() WHERE msid = " + msid);
        f.update("UPDATE async_job SET job_status = 2, job_result_code = 530 WHERE job_status = 0 AND job_init_msid = "
                + msid);
    }

    /** An IN_PROGRESS job of {@code msid} on the cluster (instance_id recorded). */
    static long job(Fixtures f, long clusterId, long msid) throws SQLException {
        long id = f.jobWithInstanceId(clusterId);
        f.update("UPDATE async_job SET job_init_msid = " + msid + ", job_executing_msid = " + msid + " WHERE id = " + id);
        return id;
    }

    static Fence<State> fence(Databases.Db db, long clusterId) {
        return dao(db).findFence(clusterId);
    }
}
