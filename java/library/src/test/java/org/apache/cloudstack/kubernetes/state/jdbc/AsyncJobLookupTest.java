// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.Profile;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The IN_PROGRESS cluster job lookup on CloudStack's async_job table. */
class AsyncJobLookupTest {
    private static final ClusterCommandSet EVERY = ClusterCommandSet.ofReleaseLine(Profile.CLOUDSTACK_4_22);
    private static final String START_CMD = "org.apache.cloudstack.api.command.user.kubernetes.cluster.StartKubernetesClusterCmd";

    static Stream<Databases.Db> dbs() {
        return Databases.all();
    }

    private static AsyncJobLookup.ClusterJobs lookup(Databases.Db db, StatementCounter counter) throws SQLException {
        try (Connection c = counter.open()) {
            return new AsyncJobLookup(EVERY).inProgressClusterJobs(c);
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
        long noType = f.job().instanceType(null).cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(a))).insert();
        // An older server's uuid in upper case: the same cluster on every database, as in MySQL's collation.
        long upperCase = f.job().cmd(START_CMD).cmdInfo(Fixtures.cmdInfo(f.uuid(b).toUpperCase(java.util.Locale.ROOT))).insert();
        long unknown = f.job().cmd(START_CMD).cmdInfo("{\"id\":\"" + UUID.randomUUID() + "\"}").insert();
        // Not cluster jobs, or not in progress.
        f.job().instanceType("VirtualMachine").instance(a).cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").insert();
        f.job().instanceType(null).cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").cmdInfo(Fixtures.cmdInfo(f.uuid(a))).insert();
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
            List<Long> naming = new AsyncJobLookup(EVERY).jobsNaming(c, b, f.uuid(b), 100);
            assertTrue(naming.containsAll(List.of(upperCase, byUuid, byIdRemovedRow)), naming.toString());
            assertFalse(naming.contains(idWins), "instance_id names a; its job_cmd_info's uuid of b does not count");
            assertEquals(naming.stream().sorted(java.util.Comparator.reverseOrder()).toList(), naming, "newest first");
            assertEquals(2, new AsyncJobLookup(EVERY).jobsNaming(c, b, f.uuid(b), 2).size(), "at most the limit");
        }
    }

    @ParameterizedTest(name = "{0} every job shape CloudStack writes names its cluster, whatever instance_type says")
    @MethodSource("dbs")
    void everyJobShapeNamesItsCluster(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        CloudStackRows rows = f.rows();
        Map<Long, AsyncJobLookup.ClusterJob> expected = new HashMap<>();
        Map<Long, Long> clusterOfJob = new HashMap<>();
        for (JobShape shape : JobShape.values()) {
            for (String cmd : ClusterCommandSet.OF_4_21) {
                long cluster = f.cluster(State.Scaling);
                long job = rows.job().shape(shape).cmd(cmd).cluster(cluster, f.uuid(cluster)).insert();
                boolean byId = shape.instanceId(cmd, cluster) != null;
                expected.put(job, new AsyncJobLookup.ClusterJob(job, cluster,
                        byId ? AsyncJobLookup.Source.INSTANCE_ID : AsyncJobLookup.Source.CMD_INFO_UUID));
                clusterOfJob.put(job, cluster);
            }
        }
        // A command that reports no resource type at all (instance_type NULL) counts the same.
        long untyped = f.cluster(State.Upgrading);
        long untypedJob = rows.job().cmd(ClusterCommandSet.UPGRADE).instanceType(null).cluster(untyped, f.uuid(untyped)).insert();
        expected.put(untypedJob, new AsyncJobLookup.ClusterJob(untypedJob, untyped, AsyncJobLookup.Source.CMD_INFO_UUID));
        clusterOfJob.put(untypedJob, untyped);
        // A create whose instance_id is missing: its numeric "id" is no uuid, its "uuid" member is.
        long created = f.cluster(State.Starting);
        long createJob = rows.job().cmd(ClusterCommandSet.CREATE).instance(null).cluster(created, f.uuid(created)).insert();
        expected.put(createJob, new AsyncJobLookup.ClusterJob(createJob, created, AsyncJobLookup.Source.CMD_INFO_UUID));
        clusterOfJob.put(createJob, created);
        // Not cluster jobs, with a cluster's uuid as their "id" and the old 'None' resource type.
        rows.job().cmd("org.apache.cloudstack.api.command.user.vm.StartVMCmd").instanceType("None")
                .cmdInfo(Fixtures.cmdInfo(f.uuid(untyped))).insert();
        rows.job().cmd("org.apache.cloudstack.api.command.admin.kubernetes.version.AddKubernetesSupportedVersionCmd")
                .instanceType("None").cmdInfo(Fixtures.cmdInfo(f.uuid(untyped))).insert();

        Map<Long, AsyncJobLookup.ClusterJob> found = new HashMap<>();
        lookup(db, new StatementCounter(db.source())).jobs().forEach(j -> found.put(j.jobId(), j));
        assertEquals(expected, found);
        try (Connection c = db.connect()) {
            for (Map.Entry<Long, Long> e : clusterOfJob.entrySet()) {
                assertEquals(List.of(e.getKey()), new AsyncJobLookup(EVERY).jobsNaming(c, e.getValue(), f.uuid(e.getValue()), 10),
                        "explain's jobs of cluster " + e.getValue());
            }
        }
    }

    @ParameterizedTest(name = "{0} the commands given decide: a command the plugin adds holds its cluster, one its line lacks does not")
    @MethodSource("dbs")
    void theCommandsGivenDecideWhichJobsHoldAClusterTheirs(Databases.Db db) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        CloudStackRows rows = f.rows();
        String added = "org.example.cks.RebalanceKubernetesClusterCmd";
        long rebalancing = f.cluster(State.Scaling);
        long rebalanceJob = rows.job().cmd(added).cluster(rebalancing, f.uuid(rebalancing)).insert();
        long adding = f.cluster(State.Scaling);
        long addNodesJob = rows.job().cmd(ClusterCommandSet.ADD_NODES).cluster(adding, f.uuid(adding)).insert();
        long stopping = f.cluster(State.Stopping);
        long stopJob = rows.job().cmd(ClusterCommandSet.STOP).cluster(stopping, f.uuid(stopping)).insert();

        ClusterCommandSet plugin = ClusterCommandSet.of("a plugin's", List.of(
                new ClusterCommandSet.Command(ClusterCommandSet.STOP, ClusterCommandSet.RESOURCE_TYPE),
                new ClusterCommandSet.Command(added, ClusterCommandSet.RESOURCE_TYPE)));
        try (Connection c = db.connect()) {
            assertEquals(Map.of(rebalanceJob, rebalancing, stopJob, stopping), clusterOfJob(new AsyncJobLookup(plugin), c),
                    "the plugin's commands: its new one, not a command it does not register");
            assertEquals(Map.of(addNodesJob, adding, stopJob, stopping), clusterOfJob(new AsyncJobLookup(EVERY), c),
                    "4.21 and later: add nodes, not a command of no release");
            assertEquals(Map.of(stopJob, stopping),
                    clusterOfJob(new AsyncJobLookup(ClusterCommandSet.ofReleaseLine(Profile.CLOUDSTACK_4_20_2)), c),
                    "4.20 has no add nodes");
            assertEquals(List.of(rebalanceJob), new AsyncJobLookup(plugin).jobsNaming(c, rebalancing, f.uuid(rebalancing), 10));
            assertEquals(List.of(), new AsyncJobLookup(EVERY).jobsNaming(c, rebalancing, f.uuid(rebalancing), 10));
        }
    }

    private static Map<Long, Long> clusterOfJob(AsyncJobLookup lookup, Connection c) throws SQLException {
        Map<Long, Long> out = new HashMap<>();
        lookup.inProgressClusterJobs(c).jobs().forEach(j -> out.put(j.jobId(), j.clusterId()));
        return out;
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
        java.util.Set<Long> clusters = new java.util.HashSet<>();
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            CloudStackRows rows = CloudStackRows.on(c);
            for (int i = 1; i <= n; i++) {
                String uuid = UUID.randomUUID().toString();
                long id = rows.cluster("Scaling").uuid(uuid).insert();
                clusters.add(id);
                rows.job().shape(JobShape.CURRENT).cluster(id, uuid).insert();
            }
            c.commit();
        }
        StatementCounter counter = new StatementCounter(db.source());
        AsyncJobLookup.ClusterJobs jobs = lookup(db, counter);
        assertEquals(n, jobs.jobs().size());
        assertFalse(anyUnknown(jobs));
        assertEquals(1 + 2, counter.count(), "jobs + ceil(700 / 500) uuid queries");
        assertEquals(clusters, java.util.Arrays.stream(jobs.clusterIds()).boxed().collect(java.util.stream.Collectors.toSet()));
    }
}
