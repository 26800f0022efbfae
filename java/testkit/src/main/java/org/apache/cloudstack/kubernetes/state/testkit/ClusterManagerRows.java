// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What CloudStack writes about its management servers and their jobs, for the tests and the
 * simulator alike (the rows themselves come from {@link CloudStackRows}): a server's start
 * ({@code AsyncJobDaoImpl.resetJobProcess}, then {@code ClusterManagerImpl} marks it Up with its new
 * runid), its heartbeat, a peer that marks a silent server Down and fails its jobs, a clean stop,
 * and a job's end. Every time column in CloudStack's time base ({@link RowWriter#utcNow}).
 */
public final class ClusterManagerRows {
    /** {@code resetJobProcess}'s result of a job its server's restart (or a peer) ended. */
    public static final int JOB_CANCELLED = 530;
    private static final String CANCELLED_TEXT = "job cancelled because of management server restart or shutdown";
    /** The jobs of a server, as {@code resetJobProcess} selects them. */
    private static final String JOBS_OF = " WHERE job_status = 0 AND (job_executing_msid = ?"
            + " OR (job_executing_msid IS NULL AND job_init_msid = ?))";

    private final ConnectionOpener source;

    public ClusterManagerRows(ConnectionOpener source) {
        this.source = source;
    }

    /**
     * A server starts (again) with {@code runid}: its unfinished jobs fail with 530, its row is Up with
     * the new runid and a fresh heartbeat. One transaction. The number of jobs failed.
     */
    public int started(long msid, long runid) throws SQLException {
        try (Connection c = source.open()) {
            return inTransaction(c, () -> {
                int failed = failJobsOf(c, msid, msid);
                try (PreparedStatement up = c.prepareStatement("UPDATE mshost SET runid = ?, state = 'Up',"
                        + " last_update = " + RowWriter.utcNow(c) + " WHERE msid = ?")) {
                    up.setLong(1, runid);
                    up.setLong(2, msid);
                    up.executeUpdate();
                }
                return failed;
            });
        }
    }

    /** A heartbeat of this run; false when it is not the server's live run any more (a peer marked it Down). */
    public boolean beat(long msid, long runid) throws SQLException {
        try (Connection c = source.open(); PreparedStatement ps = c.prepareStatement("UPDATE mshost SET last_update = "
                + RowWriter.utcNow(c) + " WHERE msid = ? AND runid = ? AND state = 'Up'")) {
            ps.setLong(1, msid);
            ps.setLong(2, runid);
            return ps.executeUpdate() == 1;
        }
    }

    /** The (msid, runid) of the other servers that are Up but silent for longer than {@code thresholdMillis}. */
    public List<long[]> silentPeers(long self, long thresholdMillis) throws SQLException {
        List<long[]> out = new ArrayList<>();
        try (Connection c = source.open(); PreparedStatement ps = c.prepareStatement("SELECT msid, runid FROM mshost"
                + " WHERE state = 'Up' AND msid <> ? AND TIMESTAMPDIFF(SECOND, last_update, " + RowWriter.utcNow(c)
                + ") * 1000 > ?")) {
            ps.setLong(1, self);
            ps.setLong(2, thresholdMillis);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new long[] {rs.getLong(1), rs.getLong(2)});
                }
            }
        }
        return out;
    }

    /**
     * A peer ({@code self}) marks that run of a silent server Down and fails its unfinished jobs, in one
     * transaction: the row lock on mshost keeps a restart of that server from starting jobs the second
     * statement would fail. False when another peer or a restart got there first.
     */
    public boolean markPeerDown(long self, long msid, long runid) throws SQLException {
        try (Connection c = source.open()) {
            return inTransaction(c, () -> {
                try (PreparedStatement down = c.prepareStatement("UPDATE mshost SET state = 'Down' WHERE msid = ?"
                        + " AND runid = ? AND state = 'Up'")) {
                    down.setLong(1, msid);
                    down.setLong(2, runid);
                    if (down.executeUpdate() != 1) {
                        return false;
                    }
                }
                failJobsOf(c, msid, self);
                return true;
            });
        }
    }

    /** The server is seen gone (any run): Down. */
    public void markDown(long msid) throws SQLException {
        update("UPDATE mshost SET state = 'Down' WHERE msid = ?", msid);
    }

    /** A clean stop of this run (its jobs all finished): Down. */
    public void stopped(long msid, long runid) throws SQLException {
        update("UPDATE mshost SET state = 'Down' WHERE msid = ? AND runid = ?", msid, runid);
    }

    /** A job's end on server {@code msid}, as the job framework writes it (soft-deleted, as CloudStack leaves it). */
    public void jobFinished(long jobId, long msid, boolean succeeded) throws SQLException {
        try (Connection c = source.open(); PreparedStatement ps = c.prepareStatement("UPDATE async_job SET job_status = ?,"
                + " job_result_code = ?, job_complete_msid = ?, last_updated = " + RowWriter.utcNow(c) + ", removed = "
                + RowWriter.utcNow(c) + " WHERE id = ? AND job_status = 0")) {
            ps.setInt(1, succeeded ? 1 : 2);
            ps.setInt(2, succeeded ? 0 : JOB_CANCELLED);
            ps.setLong(3, msid);
            ps.setLong(4, jobId);
            ps.executeUpdate();
        }
    }

    private static int failJobsOf(Connection c, long msid, long completedBy) throws SQLException {
        try (PreparedStatement jobs = c.prepareStatement("UPDATE async_job SET job_status = 2, job_result_code = "
                + JOB_CANCELLED + ", job_result = '" + CANCELLED_TEXT + "', job_complete_msid = ?, last_updated = "
                + RowWriter.utcNow(c) + JOBS_OF)) {
            jobs.setLong(1, completedBy);
            jobs.setLong(2, msid);
            jobs.setLong(3, msid);
            return jobs.executeUpdate();
        }
    }

    private void update(String sql, long... parameters) throws SQLException {
        try (Connection c = source.open(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setLong(i + 1, parameters[i]);
            }
            ps.executeUpdate();
        }
    }

    /** A body of statements that commits whole or not at all. */
    @FunctionalInterface
    private interface Body<T> {
        T run() throws SQLException;
    }

    private static <T> T inTransaction(Connection c, Body<T> body) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            T result = body.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }
}
