package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.reference.KubernetesCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The IN_PROGRESS cluster job lookup on CloudStack's async_job table. */
class AsyncJobLookupTest {
    private static final String START_CMD = "org.apache.cloudstack.api.command.user.kubernetes.cluster.StartKubernetesClusterCmd";

    static Stream<Databases.Db> dbs() {
        return Databases.all();
    }

    private static AsyncJobLookup.ClusterJobs lookup(Databases.Db db, StatementCounter counter) throws SQLException {
        try (Connection c = counter.open()) {
            return new AsyncJobLookup().inProgressClusterJobs(c);
        }
    }

    private static boolean anyUnknown(AsyncJobLookup.ClusterJobs jobs) {
        return jobs.jobs().stream().anyMatch(j -> j.clusterId() == AsyncJobLookup.UNKNOWN_CLUSTER);
    }

    @ParameterizedTest(name = "{0} which jobs count and how their cluster is found")
    @MethodSource("dbs")
    void whichJobsAndTheirClusters(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long a = f.cluster(State.Scaling);
        long b = f.cluster(State.Upgrading);
        long gone = f.cluster(State.Destroyed);
        f.remove(gone);
        long byId = f.job().instance(a).insert();
        long byIdRemovedRow = f.job().instance(b).removed(true).insert();
        long byUuid = f.job().cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(b))).insert();
        long byUuidOfRemoved = f.job().cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(gone))).insert();
        long idWins = f.job().instance(a).cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(b))).insert();
        long noType = f.job().type(null).cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(a))).insert();
        // An older server's uuid in upper case: the same cluster on every database, as in MySQL's collation.
        long upperCase = f.job().cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(b).toUpperCase(java.util.Locale.ROOT))).insert();
        long unknown = f.job().cmd(START_CMD).cmdInfo("{\"id\":\"" + UUID.randomUUID() + "\"}").insert();
        // Not cluster jobs, or not in progress.
        f.job().type("VirtualMachine").instance(a).cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").insert();
        f.job().type(null).cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").cmdInfo(Fixtures.cmdInfo(f.uuid(a))).insert();
        f.job().status(1).instance(a).insert();
        f.job().status(2).cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(a))).removed(true).insert();
        f.job().status(3).instance(b).cmd(START_CMD).insert();

        StatementCounter counter = new StatementCounter(db.source());
        AsyncJobLookup.ClusterJobs jobs = lookup(db, counter);
        Map<Long, AsyncJobLookup.ClusterJob> byJob = new HashMap<>();
        jobs.jobs().forEach(j -> byJob.put(j.jobId(), j));
        assertEquals(Map.of(
                byId, new AsyncJobLookup.ClusterJob(byId, a, AsyncJobLookup.Source.INSTANCE_ID),
                byIdRemovedRow, new AsyncJobLookup.ClusterJob(byIdRemovedRow, b, AsyncJobLookup.Source.INSTANCE_ID),
                byUuid, new AsyncJobLookup.ClusterJob(byUuid, b, AsyncJobLookup.Source.CMD_INFO_UUID),
                byUuidOfRemoved, new AsyncJobLookup.ClusterJob(byUuidOfRemoved, gone, AsyncJobLookup.Source.CMD_INFO_UUID),
                idWins, new AsyncJobLookup.ClusterJob(idWins, a, AsyncJobLookup.Source.INSTANCE_ID),
                noType, new AsyncJobLookup.ClusterJob(noType, a, AsyncJobLookup.Source.CMD_INFO_UUID),
                upperCase, new AsyncJobLookup.ClusterJob(upperCase, b, AsyncJobLookup.Source.CMD_INFO_UUID),
                unknown, new AsyncJobLookup.ClusterJob(unknown, -1, AsyncJobLookup.Source.UNKNOWN)), byJob);
        assertTrue(anyUnknown(jobs));
        assertEquals(2, counter.count(), "one query for the jobs, one for all the uuids");

        // Jobs of any status that name b, by the same rule, newest first (explain's list).
        try (Connection c = db.connect()) {
            List<Long> naming = new AsyncJobLookup().jobsNaming(c, b, f.uuid(b), 100);
            assertTrue(naming.containsAll(List.of(upperCase, byUuid, byIdRemovedRow)), naming.toString());
            assertFalse(naming.contains(idWins), "instance_id names a; its job_cmd_info's uuid of b does not count");
            assertEquals(naming.stream().sorted(java.util.Comparator.reverseOrder()).toList(), naming, "newest first");
            assertEquals(2, new AsyncJobLookup().jobsNaming(c, b, f.uuid(b), 2).size(), "at most the limit");
        }
    }

    @ParameterizedTest(name = "{0} no uuid to resolve: a single statement")
    @MethodSource("dbs")
    void singleStatementWithoutUuids(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        long a = f.cluster(State.Scaling);
        f.jobWithInstanceId(a);
        f.job().cmd(START_CMD).cmdInfo("{malformed").insert();
        StatementCounter counter = new StatementCounter(db.source());
        AsyncJobLookup.ClusterJobs jobs = lookup(db, counter);
        assertEquals(2, jobs.jobs().size());
        assertEquals(1, counter.count());
        assertTrue(anyUnknown(jobs));
        assertEquals(List.of(a, -1L), java.util.Arrays.stream(jobs.clusterIds()).boxed().sorted((x, y) ->
                Long.compare(y, x)).toList());
    }

    @ParameterizedTest(name = "{0} many uuid-only jobs: statements grow by one per 500 uuids, not per job")
    @MethodSource("dbs")
    void manyUuidOnlyJobs(Databases.Db db) throws SQLException {
        db.reset();
        int n = 700;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement cl = c.prepareStatement(
                    "INSERT INTO kubernetes_cluster (id, uuid, name, state, created) VALUES (?, ?, ?, 'Scaling', CURRENT_TIMESTAMP)");
                    PreparedStatement job = c.prepareStatement("INSERT INTO async_job (job_status, instance_type,"
                            + " job_cmd, job_cmd_info) VALUES (0, 'KubernetesCluster', ?, ?)")) {
                for (int i = 1; i <= n; i++) {
                    String uuid = UUID.randomUUID().toString();
                    cl.setLong(1, 100_000 + i);
                    cl.setString(2, uuid);
                    cl.setString(3, "c" + i);
                    cl.addBatch();
                    job.setString(1, Fixtures.SCALE_CMD);
                    job.setString(2, Fixtures.cmdInfo(uuid));
                    job.addBatch();
                }
                cl.executeBatch();
                job.executeBatch();
            }
            c.commit();
        }
        StatementCounter counter = new StatementCounter(db.source());
        AsyncJobLookup.ClusterJobs jobs = lookup(db, counter);
        assertEquals(n, jobs.jobs().size());
        assertFalse(anyUnknown(jobs));
        assertEquals(1 + 2, counter.count(), "jobs + ceil(700 / 500) uuid queries");
        assertEquals(n, java.util.Arrays.stream(jobs.clusterIds()).filter(id -> id > 100_000).distinct().count());
    }
}
