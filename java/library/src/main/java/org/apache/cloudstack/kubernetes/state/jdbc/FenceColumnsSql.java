// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;

/**
 * The fenced mode's columns of {@code kubernetes_cluster}, named once: the version every fenced write
 * stores and the owner of the operation holding the cluster (NULL: free). Every statement, reader
 * and binder takes them from here, in this order; {@code fenced-up.sql} adds them.
 */
final class FenceColumnsSql {
    static final String VERSION = "state_version";
    static final String OWNER_MSID = "op_owner_msid";
    static final String OWNER_RUNID = "op_owner_runid";
    static final String JOB = "op_job_id";
    static final List<String> ALL = List.of(VERSION, OWNER_MSID, OWNER_RUNID, JOB);
    /** How many there are: a reader's and a binder's stride. */
    static final int COUNT = 4;
    /** The columns, comma-separated (a compile-time constant for the SQL constants). */
    static final String LIST = VERSION + ", " + OWNER_MSID + ", " + OWNER_RUNID + ", " + JOB;
    /** {@code SET} assignments of all of them, one parameter each, in order. */
    static final String ASSIGNMENTS = VERSION + " = ?, " + OWNER_MSID + " = ?, " + OWNER_RUNID + " = ?, " + JOB
            + " = ?";

    private FenceColumnsSql() {
    }

    /** {@link #LIST} with every column prefixed by {@code alias.}. */
    static String list(String alias) {
        return alias == null ? LIST : String.join(", ", ALL.stream().map(c -> alias + "." + c).toList());
    }

    /** Binds the version and the owner (null: free) to the parameters from {@code first}, in order. */
    static void bind(PreparedStatement ps, int first, long version, Owner owner) throws SQLException {
        ps.setLong(first, version);
        nullable(ps, first + 1, owner == null ? null : owner.msid());
        nullable(ps, first + 2, owner == null ? null : owner.runid());
        nullable(ps, first + 3, owner == null || !owner.hasJob() ? null : owner.jobId());
    }

    /** The row of {@code state} whose fence columns are read from column {@code first} on. */
    static <S> ClusterRow<S> read(ResultSet rs, int first, S state) throws SQLException {
        long version = rs.getLong(first);
        long msid = rs.getLong(first + 1);
        if (rs.wasNull()) {
            return ClusterRow.of(state, version, null);
        }
        long runid = rs.getLong(first + 2);
        long job = rs.getLong(first + 3);
        return ClusterRow.of(state, version, new Owner(msid, runid, rs.wasNull() ? Owner.NO_JOB : job));
    }

    static void nullable(PreparedStatement ps, int index, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, value);
        }
    }
}
