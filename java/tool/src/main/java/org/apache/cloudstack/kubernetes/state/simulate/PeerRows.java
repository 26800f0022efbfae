package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a management server process does with {@code mshost} and its peers' jobs, as CloudStack's
 * cluster manager does: beat, find silent peers, mark one Down and fail its jobs, stop cleanly.
 */
final class PeerRows {
    private final SimulationDatabase db;

    PeerRows(SimulationDatabase db) {
        this.db = db;
    }

    /** A beat of this run; false when the run is no longer the server's live one (peers marked it Down). */
    boolean beat(long msid, long runid) throws SQLException {
        return db.execute("UPDATE mshost SET last_update = " + db.now() + " WHERE msid = ? AND runid = ? AND state = 'Up'", msid,
                runid) == 1;
    }

    /** The (msid, runid) of other servers that are Up but silent for longer than {@code thresholdMillis}. */
    List<long[]> silentPeers(long self, long thresholdMillis) throws SQLException {
        List<long[]> out = new ArrayList<>();
        try (Connection c = db.open();
             PreparedStatement ps = c.prepareStatement("SELECT msid, runid FROM mshost WHERE state = 'Up' AND msid <> ?"
                     + " AND TIMESTAMPDIFF(SECOND, last_update, " + db.now() + ") * 1000 > ?")) {
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
     * What a peer does about a silent server, as CloudStack's cluster manager does: marks that run
     * Down and fails its unfinished jobs (530). False when another peer (or a restart) got there first.
     */
    boolean markPeerDown(long self, long msid, long runid) throws SQLException {
        // One transaction: the row lock on mshost keeps a restart of that msid (which updates the same
        // row) from starting jobs that the second statement would then fail.
        try (Connection c = db.open()) {
            c.setAutoCommit(false);
            try (PreparedStatement down = c.prepareStatement("UPDATE mshost SET state = 'Down' WHERE msid = ? AND runid = ?"
                    + " AND state = 'Up'");
                    PreparedStatement jobs = c.prepareStatement("UPDATE async_job SET job_status = 2, job_result_code ="
                    + " 530, job_result = 'job cancelled because of management server restart or shutdown',"
                    + " job_complete_msid = ?, last_updated = " + db.now() + " WHERE job_executing_msid = ? AND job_status = 0")) {
                down.setLong(1, msid);
                down.setLong(2, runid);
                if (down.executeUpdate() != 1) {
                    c.rollback();
                    return false;
                }
                jobs.setLong(1, self);
                jobs.setLong(2, msid);
                jobs.executeUpdate();
                c.commit();
                return true;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    /** A clean stop: the run marks itself Down (its jobs are all finished). */
    void markRunDown(long msid, long runid) throws SQLException {
        db.execute("UPDATE mshost SET state = 'Down' WHERE msid = ? AND runid = ?", msid, runid);
    }

}
