// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.departed;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.jdbc.AsyncJobLookup;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;
import org.apache.cloudstack.kubernetes.state.tool.text.DatabaseTime;

/**
 * The IN_PROGRESS async jobs of management servers that are gone, and the way CloudStack itself
 * ends them.
 *
 * <p>A job runs on its server: {@code job_executing_msid}, else {@code job_init_msid}
 * ({@code AsyncJobDaoImpl.getResetJobs}). CloudStack fails a server's IN_PROGRESS jobs when that
 * server starts again ({@code AsyncJobManagerImpl.start} calls {@code cleanupLeftOverJobs} with its
 * msid). A peer that sees it leave means to do the same, but passes the {@code mshost} row id where
 * the jobs hold the msid ({@code onManagementNodeLeft}), so the jobs of a server that never comes
 * back stay IN_PROGRESS until a peer's job garbage collector deletes them, {@code job.expire.minutes}
 * (default a day) after they were created; until then the status scanner recovers no cluster such
 * a job names.
 *
 * <p>A server is gone when its {@code mshost} row is Down, removed, or has sent no heartbeat for
 * longer than {@code cluster.heartbeat.threshold}, in database time (the signals of the status
 * scanner's owner check), and is not Up with a fresh heartbeat: a row that is Up and beating is
 * never gone, whatever else it says. A row that still says Up with an old heartbeat may be a server
 * that is only stalled: its jobs are listed apart ({@link Why#SILENT_UP}) and failed only when the
 * operator asks for them. A job created after its server's last heartbeat (or less than
 * {@link #CLOCK_MARGIN_SECONDS} before it) proves that the server was alive then: it is listed,
 * and never failed. A job whose msid has no {@code mshost} row proves nothing and is not listed. {@link #fail} ends only Kubernetes cluster jobs, and does to each what
 * {@code cleanupLeftOverJobs} does when its server starts: FAILED, result code 530 and its text,
 * {@code job_complete_msid} the server's msid, {@code last_updated} and {@code removed} now, and the
 * job's sync queue item purged; by compare-and-set on {@code job_status = 0}, with the server's row
 * locked and still gone. Other jobs are left to the server's own start, which also moves their VMs,
 * volumes and snapshots out of their transitional states ({@code cleanupResources}).
 */
public final class DepartedServerJobs {
    /** {@code ApiErrorCode.INTERNAL_ERROR}'s HTTP code, which {@code cleanupLeftOverJobs} writes. */
    public static final int RESULT_CODE = 530;
    /** The result text {@code cleanupLeftOverJobs} writes. */
    public static final String RESULT = "job cancelled because of management server restart or shutdown";
    /** {@code job_status} FAILED. */
    private static final int FAILED = 2;
    /**
     * A job created less than this before its server's last heartbeat counts as created after it:
     * both times have whole seconds, and may come from two servers' clocks (the job's creator and the
     * server that runs it).
     */
    static final int CLOCK_MARGIN_SECONDS = 5;

    /** Why a server is gone; the first that holds, in this order. */
    public enum Why {
        REMOVED("its mshost row is removed"),
        DOWN("mshost shows it Down"),
        SILENT("it has sent no heartbeat for longer than cluster.heartbeat.threshold"),
        SILENT_UP("mshost still shows it Up, but it has sent no heartbeat for longer than cluster.heartbeat.threshold:"
                + " it may be stalled rather than gone");

        private final String description;

        Why(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /**
     * One job of a departed server. {@code clusterId}: the cluster it acts on by the scanner's own
     * rule ({@link AsyncJobLookup}), {@link AsyncJobLookup#UNKNOWN_CLUSTER} when it is a cluster job
     * whose cluster cannot be read, null when it is not a Kubernetes cluster job.
     * {@code silentSeconds}: the age of the server's last heartbeat in database time, null without one.
     */
    public record Job(long jobId, String jobUuid, String command, Long clusterId, String jobCreated, long msid,
            String serverName, String serverState, String serverRemoved, String lastHeartbeat, Long silentSeconds,
            Why why, boolean createdAfterHeartbeat) {
        /** True for a job of a Kubernetes cluster command. */
        public boolean clusterJob() {
            return clusterId != null;
        }

        /** The same job, acting on {@code cluster}. */
        Job withCluster(Long cluster) {
            return new Job(jobId, jobUuid, command, cluster, jobCreated, msid, serverName, serverState, serverRemoved,
                    lastHeartbeat, silentSeconds, why, createdAfterHeartbeat);
        }

        /** Why {@link #fail} leaves this job, or null when it would fail it. */
        public String leftBecause(boolean includeSilentUp) {
            if (!clusterJob()) {
                return NOT_A_CLUSTER_JOB;
            }
            if (createdAfterHeartbeat) {
                return "created after its server's last heartbeat: the server was alive then";
            }
            return why == Why.SILENT_UP && !includeSilentUp
                    ? "its server's row says Up: it may be stalled (--include-silent-up fails its jobs too)" : null;
        }
    }

    /**
     * What {@link #fail} did to one job: failed, or left and why (the job ended, its server is back,
     * it is no cluster job, or {@code error}, a database error, which is not printed as it came).
     */
    public record Outcome(Job job, boolean failed, String missed, SQLException error, boolean left) {
        Outcome(Job job, boolean failed, String missed, SQLException error) { this(job, failed, missed, error, false); }
    }

    private final long thresholdMillis;
    private final boolean includeSilentUp;
    private final AsyncJobLookup jobLookup;

    /**
     * @param commands        the commands whose jobs hold a cluster
     * @param thresholdMillis the deployment's {@code cluster.heartbeat.threshold}
     * @param includeSilentUp whether {@link #fail} also fails the jobs of a row that says Up with an old heartbeat
     */
    public DepartedServerJobs(ClusterCommandSet commands, long thresholdMillis, boolean includeSilentUp) {
        this.jobLookup = new AsyncJobLookup(commands);
        if (thresholdMillis <= 0) {
            throw new IllegalArgumentException("heartbeat threshold must be positive: " + thresholdMillis);
        }
        this.thresholdMillis = thresholdMillis;
        this.includeSilentUp = includeSilentUp;
    }

    /** Whether {@link #fail} would fail {@code job}: the same rule the dry run shows. */
    public boolean wouldFail(Job job) {
        return whyLeft(job) == null;
    }

    /** Why {@link #fail} leaves {@code job} without trying it, or null when it would fail it. */
    public String whyLeft(Job job) {
        return job.leftBecause(includeSilentUp);
    }

    /** The gone condition on {@code mshost m}, with two parameters, the threshold in ms; {@code now} is the clock's SQL. */
    private static String gone(String now) {
        String silent = "TIMESTAMPDIFF(SECOND, m.last_update, " + now + ") * 1000 > ?";
        return "((m.removed IS NOT NULL OR m.state = 'Down' OR " + silent + ") AND NOT (m.state = 'Up' AND NOT ("
                + silent + ")))";
    }

    private int bindGone(PreparedStatement ps, int first) throws SQLException {
        ps.setLong(first, thresholdMillis);
        ps.setLong(first + 1, thresholdMillis);
        return first + 2;
    }

    /**
     * Every IN_PROGRESS job of a departed server, oldest first. Reads only: {@code mshost} first,
     * and {@code async_job} only when a server is gone (then whole: CloudStack has no index on the
     * msids of a job, and reads them the same way at a server's start).
     */
    public List<Job> find(Connection c) throws SQLException {
        String now = DatabaseClock.utcNow(c);
        List<Long> goneServers = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT m.msid FROM mshost m WHERE " + gone(now))) {
            bindGone(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    goneServers.add(rs.getLong(1));
                }
            }
        }
        List<Job> jobs = new ArrayList<>();
        if (goneServers.isEmpty()) {
            return jobs;
        }
        String sql = "SELECT j.id, j.uuid, j.job_cmd, j.created, m.msid, m.name, m.state, m.removed, m.last_update,"
                + " TIMESTAMPDIFF(SECOND, m.last_update, " + now + "), CASE WHEN TIMESTAMPDIFF(SECOND, j.created,"
                + " m.last_update) < " + CLOCK_MARGIN_SECONDS + " THEN 1 ELSE 0 END"
                + " FROM async_job j JOIN mshost m ON m.msid = COALESCE(j.job_executing_msid, j.job_init_msid)"
                + " WHERE j.job_status = " + AsyncJobLookup.IN_PROGRESS + " AND " + gone(now) + " ORDER BY j.id";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bindGone(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String removed = DatabaseTime.text(rs.getObject(8));
                    String state = rs.getString(7);
                    long age = rs.getLong(10);
                    Long silent = rs.wasNull() ? null : age;
                    Why why = removed != null ? Why.REMOVED : "Down".equalsIgnoreCase(state) ? Why.DOWN
                            : "Up".equalsIgnoreCase(state) ? Why.SILENT_UP : Why.SILENT;
                    jobs.add(new Job(rs.getLong(1), rs.getString(2), rs.getString(3), null, DatabaseTime.text(rs.getObject(4)),
                            rs.getLong(5), rs.getString(6), state, removed, DatabaseTime.text(rs.getObject(9)), silent, why,
                            rs.getInt(11) == 1));
                }
            }
        }
        if (jobs.isEmpty()) {
            return jobs;
        }
        Map<Long, Long> clusterOf = new HashMap<>();
        for (AsyncJobLookup.ClusterJob j : jobLookup.inProgressClusterJobs(c).jobs()) {
            clusterOf.put(j.jobId(), j.clusterId());
        }
        List<Job> out = new ArrayList<>(jobs.size());
        for (Job j : jobs) {
            Long cluster = clusterOf.get(j.jobId());
            if (cluster == null && jobLookup.commands().contains(j.command())) {
                cluster = AsyncJobLookup.UNKNOWN_CLUSTER; // ended between the two reads: shown as of unknown cluster
            }
            out.add(j.withCluster(cluster));
        }
        return out;
    }

    /**
     * Fails each Kubernetes cluster job of {@code jobs} as {@code cleanupLeftOverJobs} does when its
     * server starts, each in a transaction of its own: the server's {@code mshost} row locked and
     * checked still gone, then the compare-and-set on {@code job_status = 0}, then its sync queue
     * item purged. Other jobs are left (and reported so); a database error on one job is that
     * job's outcome, and the others are still tried.
     */
    public List<Outcome> fail(ConnectionSource source, List<Job> jobs) {
        return fail(source, jobs, o -> { }, () -> false);
    }

    /**
     * {@link #fail}, each outcome given to {@code committed} as soon as its transaction ends; stops
     * before the next job once {@code stop} says so (the jobs not reached are not in the result).
     */
    public List<Outcome> fail(ConnectionSource source, List<Job> jobs, java.util.function.Consumer<Outcome> committed,
            java.util.function.BooleanSupplier stop) {
        List<Outcome> out = new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            if (stop.getAsBoolean()) {
                break;
            }
            Outcome o = failOrLeave(source, job);
            out.add(o);
            committed.accept(o);
        }
        return out;
    }

    private Outcome failOrLeave(ConnectionSource source, Job job) {
        String left = whyLeft(job);
        if (left != null) {
            return new Outcome(job, false, left, null, true);
        }
        try (Connection c = source.open()) {
            c.setAutoCommit(false);
            try {
                Outcome o = failOne(c, job);
                c.commit();
                return o;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            return new Outcome(job, false, "a database error", e);
        }
    }

    /** Why {@link #fail} leaves a job that is no Kubernetes cluster job. */
    public static final String NOT_A_CLUSTER_JOB = "not a Kubernetes cluster job: its server's start also cleans up"
            + " its resources";

    /** The ids of {@code jobs}: a departed server's job is no live operation (overdue lists skip them). */
    public static Set<Long> ids(List<Job> jobs) {
        Set<Long> ids = new HashSet<>();
        jobs.forEach(j -> ids.add(j.jobId()));
        return ids;
    }

    private Outcome failOne(Connection c, Job job) throws SQLException {
        String now = DatabaseClock.utcNow(c);
        try (PreparedStatement lock = c.prepareStatement("SELECT m.msid FROM mshost m WHERE m.msid = ? AND "
                + gone(now) + " FOR UPDATE")) {
            lock.setLong(1, job.msid());
            bindGone(lock, 2);
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next()) {
                    return new Outcome(job, false, "its management server is back", null);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE async_job SET job_status = " + FAILED
                + ", job_result_code = ?, job_result = ?, job_complete_msid = ?, last_updated = " + now
                + ", removed = " + now + " WHERE id = ? AND job_status = " + AsyncJobLookup.IN_PROGRESS
                + " AND COALESCE(job_executing_msid, job_init_msid) = ?"
                + " AND TIMESTAMPDIFF(SECOND, created, (SELECT m.last_update FROM mshost m WHERE m.msid = ?)) >= "
                + CLOCK_MARGIN_SECONDS)) {
            ps.setInt(1, RESULT_CODE);
            ps.setString(2, RESULT);
            ps.setLong(3, job.msid());
            ps.setLong(4, job.jobId());
            ps.setLong(5, job.msid());
            ps.setLong(6, job.msid());
            if (ps.executeUpdate() == 0) {
                return new Outcome(job, false, "the job has ended, or its server has beaten since it was created", null);
            }
        }
        purgeQueueItem(c, job.jobId(), now);
        return new Outcome(job, true, null, null);
    }

    /** {@code SyncQueueManagerImpl.purgeAsyncJobQueueItemId}: the job's queue item goes, an active one shrinks its queue. */
    private static void purgeQueueItem(Connection c, long jobId, String now) throws SQLException {
        if (!CloudStackSchema.tableExists(c, "sync_queue_item")) {
            return; // a database without CloudStack's sync queues (H2's stand-in)
        }
        Long itemId = null;
        Long queueId = null;
        boolean active = false;
        try (PreparedStatement ps = c.prepareStatement("SELECT id, queue_id, queue_proc_msid FROM sync_queue_item"
                + " WHERE content_id = ? AND content_type = 'AsyncJob' FOR UPDATE")) {
            ps.setLong(1, jobId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    itemId = rs.getLong(1);
                    queueId = rs.getLong(2);
                    rs.getLong(3);
                    active = !rs.wasNull();
                }
            }
        }
        if (itemId == null) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM sync_queue_item WHERE id = ?")) {
            ps.setLong(1, itemId);
            ps.executeUpdate();
        }
        if (active) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE sync_queue SET queue_size = queue_size - 1,"
                    + " last_updated = " + now + " WHERE id = ? AND queue_size > 0")) {
                ps.setLong(1, queueId);
                ps.executeUpdate();
            }
        }
    }
}
