// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.ScaleKind;
import org.apache.cloudstack.kubernetes.state.ScaleOperation;
import org.apache.cloudstack.kubernetes.state.ScaleStep;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.testkit.JobInsert;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * Replays one recorded schedule through the shipping host on H2: each operation's steps through a
 * {@link ClusterOperationGuard}, each scanner pass through a {@link ClusterStateScanner} stopped at its
 * points, the job table, {@code mshost} and the VMs written as the simulation had them when its
 * scanner read them. After every step it compares what the step decided, the compare-and-sets it
 * issued and every cluster row with the recording, and fails on the first difference.
 */
final class ScheduleReplay {
    /** Heartbeat ages are written ten times over, the threshold ten times plus five seconds: a second that
     * ticks between writing an age and the scanner reading it changes no judgement. */
    private static final long AGE_SCALE = 10;

    private final ReplaySchedule schedule;
    private final Databases.Db db;
    private final StateMode mode;
    private final ObservedWrites writes;
    private final KubernetesClusterStateDao<State, Event> dao;
    private final ClusterOperationGuard<State, Event> guard;
    private final CloudStackRows rows;
    private final long threshold;
    private final Map<String, Integer> seen;
    private final List<Long> ids = new ArrayList<>();
    private final Map<Integer, Op> ops = new HashMap<>();
    private final Map<Long, Boolean> healthy = new HashMap<>();
    private List<ReplaySchedule.Row> expected;
    private SteppedScanner scanner;

    /** One operation as its worker keeps it between steps. */
    private static final class Op {
        final int cluster;
        final Operation operation;
        final ScaleKind kind;
        final ClusterOperationGuard<State, Event> guard;
        ClusterRow<State> read;
        OperationEntry<State, Event> entry;
        ScaleOperation<State, Event> scale;

        Op(ReplaySchedule.Submit s, ClusterOperationGuard<State, Event> guard) {
            this.cluster = s.cluster();
            this.operation = s.operation();
            this.kind = s.scale();
            this.guard = guard;
        }
    }

    /** {@code seen}: counts each kind of step and result replayed, for the caller's coverage check. */
    ScheduleReplay(ReplaySchedule schedule, Databases.Db db, Map<String, Integer> seen) {
        this.schedule = schedule;
        this.db = db;
        this.mode = schedule.mode();
        this.seen = seen;
        ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class,
                schedule.profile(), mode);
        this.threshold = AGE_SCALE * machine.heartbeatThresholdMillis() + 5_000;
        this.writes = new ObservedWrites(db.source());
        this.dao = new KubernetesClusterStateDao<>(machine, writes);
        this.guard = new ClusterOperationGuard<>(dao);
        this.rows = new CloudStackRows(db.source()::open);
    }

    void run() throws Exception {
        ModeFixtures.resetMigrated(db);
        setUp();
        for (ReplaySchedule.Line line : schedule.lines()) {
            try {
                replay(line);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(where(line) + ": " + e.getMessage(), e);
            }
        }
        if (scanner != null) {
            scanner.end();
        }
    }

    private void setUp() throws SQLException {
        List<ReplaySchedule.Row> start = schedule.start();
        for (int i = 0; i < start.size(); i++) {
            ReplaySchedule.Row r = start.get(i);
            long id = rows.cluster(r.state().name()).insert();
            ids.add(id);
            Owner o = r.owner();
            update("UPDATE kubernetes_cluster SET state_version = " + r.version() + ", op_owner_msid = "
                    + (o == null ? "NULL" : o.msid()) + ", op_owner_runid = " + (o == null ? "NULL" : o.runid())
                    + ", op_job_id = " + (o == null || !o.hasJob() ? "NULL" : o.jobId()) + " WHERE id = " + id);
            // One control node and one worker, as the kit's cluster has.
            rows.vm(id, vmId(i, 0), "Running", CloudStackRows.NodeRole.CONTROL);
            rows.vm(id, vmId(i, 1), "Running", CloudStackRows.NodeRole.WORKER);
        }
        expected = start;
        compareRows("the start");
    }

    private static long vmId(int cluster, int node) {
        return 1000L * (cluster + 1) + node;
    }

    private void replay(ReplaySchedule.Line line) throws Exception {
        if (line instanceof ReplaySchedule.Submit s) {
            ops.put(s.op(), new Op(s, guard.withOwner(s.owner())));
        } else if (line instanceof ReplaySchedule.ScannerStarts s) {
            if (scanner != null) {
                throw new AssertionError("a scanner pass starts while one runs");
            }
            Owner me = s.owner();
            ClusterStateScanner<State, Event> pass = new ClusterStateScanner<>(dao, () -> me);
            pass.setHeartbeatThreshold(() -> threshold);
            scanner = new SteppedScanner(pass, id -> healthy.getOrDefault(id, false),
                    "scanner of seed " + schedule.seed());
        } else if (line instanceof ReplaySchedule.ScannerEnds) {
            scanner.end();
            scanner = null;
        } else if (line instanceof ReplaySchedule.Jobs j) {
            jobs(j);
        } else if (line instanceof ReplaySchedule.Hosts h) {
            hosts(h);
        } else if (line instanceof ReplaySchedule.Vms v) {
            vms(v);
        } else if (line instanceof ReplaySchedule.Step s) {
            List<String> issued = s.isScanner() ? scannerStep(s) : opStep(s);
            if (!issued.equals(s.writes())) {
                throw new AssertionError("the simulation's writes were " + s.writes() + ", Java's " + issued);
            }
            if (s.rows() != null) {
                expected = s.rows();
            }
            compareRows("after the step");
        }
    }

    /** The step's compare-and-sets. */
    private List<String> opStep(ReplaySchedule.Step s) {
        Op op = Objects.requireNonNull(ops.get(s.op()), () -> "no operation " + s.actor());
        long id = ids.get(op.cluster);
        String java;
        String sim;
        switch (s.name()) {
            case "read" -> {
                op.read = dao.findRow(id);
                if (op.kind == null) {
                    java = "enter";
                } else {
                    op.scale = op.guard.beginScale(id, op.kind, op.read.state());
                    java = op.scale.nextStep(op.read).kind() == ScaleStep.Kind.REFUSE ? "finish-failed" : "scale";
                }
                sim = s.next();
            }
            case "enter" -> {
                op.entry = op.guard.transitToOperationState(id, op.operation, op.read);
                java = switch (op.entry.kind()) {
                    case ENTERED, PROCEEDED -> "in";
                    case NOTHING_TO_DO -> "nothing";
                    case LOST_RACE, REFUSED -> "failed";
                };
                sim = inOrEnd(s.next());
            }
            case "scale" -> {
                ScaleEntry<State, Event> step = op.guard.enterScalingState(id, op.scale);
                java = switch (step.kind()) {
                    case ENTERED, SETTINGS_ONLY, ALREADY_ENTERED -> "in";
                    default -> "failed";
                };
                sim = inOrEnd(s.next());
            }
            case "complete" -> {
                Outcome outcome = Objects.requireNonNull(s.outcome(), "a completion's outcome");
                if (op.scale != null) {
                    op.guard.completeScale(id, op.scale, outcome);
                } else {
                    op.guard.complete(id, op.entry, outcome);
                }
                java = sim = "ended";
            }
            default -> throw new AssertionError("unknown operation step " + s.name());
        }
        seen(s.name() + " " + (op.kind == null ? op.operation.specName() : "scale") + " " + java + " " + s.writes());
        if (!java.equals(sim)) {
            throw new AssertionError("the simulation went on to " + sim + ", Java to " + java);
        }
        return writes.take();
    }

    /** What the simulation's next step says of the step before: inside, nothing to do, or failed. */
    private static String inOrEnd(String next) {
        return switch (next) {
            case "work", "complete", "settings" -> "in";
            case "finish-succeeded" -> "nothing";
            default -> "failed";
        };
    }

    /** The step's compare-and-sets. */
    private List<String> scannerStep(ReplaySchedule.Step s) throws InterruptedException {
        if (scanner == null) {
            throw new AssertionError("a scanner step without a pass");
        }
        String point = scanner.step();
        seen("scanner " + s.name() + " " + s.writes());
        if (!point.equals(s.name())) {
            throw new AssertionError("the simulation's scanner took its " + s.name() + " step, Java's reached "
                    + point);
        }
        List<String> issued = writes.take();
        if (s.next().equals("done")) {
            String end = scanner.step();
            if (!end.equals("done") || !writes.take().isEmpty()) {
                throw new AssertionError("the simulation's pass ended, Java's went on to " + end);
            }
            scanner = null;
        }
        return issued;
    }

    private void jobs(ReplaySchedule.Jobs j) throws SQLException {
        update("DELETE FROM async_job");
        for (long[] job : j.jobs()) {
            JobInsert row = rows.job().id(job[0]).status((int) job[2]).msid(job[3]);
            if (job[1] >= 0) {
                long cluster = ids.get((int) job[1]);
                row.shape(JobShape.UPSTREAM).cluster(cluster, uuid(cluster));
            } else {
                // An older server's job: no instance_id, no cluster in job_cmd_info.
                row.shape(JobShape.BEFORE_4_19_1);
            }
            row.insert();
        }
    }

    private void hosts(ReplaySchedule.Hosts h) throws SQLException {
        update("DELETE FROM mshost");
        for (ReplaySchedule.Host host : h.hosts()) {
            String state = switch (host.status()) {
                case "Up", "Down" -> host.status();
                default -> "PreparingForMaintenance";
            };
            rows.mshost(host.msid()).runid(host.runid()).state(state).heartbeatAge(AGE_SCALE * host.ageSeconds())
                    .insert();
        }
    }

    private void vms(ReplaySchedule.Vms v) throws SQLException {
        healthy.clear();
        for (String[] listed : v.vms()) {
            int cluster = Integer.parseInt(listed[0]);
            String[] states = switch (listed[1]) {
                case "AllRunningHealthy" -> new String[] {"Running", "Running"};
                case "AllStopped" -> new String[] {"Stopped", "Stopped"};
                case "Mixed" -> new String[] {"Running", "Stopped"};
                default -> throw new AssertionError("the replay writes no VMs for " + listed[1]);
            };
            for (int node = 0; node < 2; node++) {
                update("UPDATE vm_instance SET state = '" + states[node] + "' WHERE id = " + vmId(cluster, node));
            }
            healthy.put(ids.get(cluster), listed[1].equals("AllRunningHealthy"));
        }
    }

    private void compareRows(String when) {
        for (int i = 0; i < ids.size(); i++) {
            ReplaySchedule.Row want = expected.get(i);
            ReplaySchedule.Row have = read(ids.get(i));
            boolean same = mode == StateMode.COMPAT ? want.state() == have.state() : want.equals(have);
            if (!same) {
                throw new AssertionError("cluster c" + i + " " + when + ": the simulation has " + want + ", Java "
                        + have);
            }
        }
    }

    private ReplaySchedule.Row read(long id) {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("SELECT state, state_version,"
                + " op_owner_msid, op_owner_runid, op_job_id FROM kubernetes_cluster WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                State state = State.valueOf(rs.getString(1).strip());
                long version = rs.getLong(2);
                long msid = rs.getLong(3);
                Owner owner = null;
                if (!rs.wasNull()) {
                    long runid = rs.getLong(4);
                    long job = rs.getLong(5);
                    owner = rs.wasNull() ? Owner.of(msid, runid) : new Owner(msid, runid, job);
                }
                return new ReplaySchedule.Row(state, version, owner);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private String uuid(long clusterId) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT uuid FROM kubernetes_cluster WHERE id = ?")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private void update(String sql) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.executeUpdate();
        }
    }

    private void seen(String what) {
        seen.merge(mode.name().toLowerCase(java.util.Locale.ROOT) + ": " + what, 1, Integer::sum);
    }

    private String where(ReplaySchedule.Line line) {
        String text = line instanceof ReplaySchedule.Step s ? s.text() : line.toString();
        return schedule.mode() + " seed " + schedule.seed() + " (" + schedule.profile().label() + "), line "
                + line.number() + " `" + text + "`";
    }
}
