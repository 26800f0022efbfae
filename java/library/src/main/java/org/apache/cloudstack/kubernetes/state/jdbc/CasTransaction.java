// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.apache.cloudstack.kubernetes.state.sql.SqlErrors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A compare-and-set in manual-commit mode, on a connection of its own ({@link #run}) or the
 * caller's ({@link #inTransaction}, which commits a hit and rolls back a miss). A deadlock, serialization failure or lock wait timeout is a lost race
 * (false); any other failure is a {@link StateStoreException} naming {@code what} (built only then).
 */
final class CasTransaction {
    private static final Logger LOG = LogManager.getLogger(CasTransaction.class);

    /** The compare-and-set itself. */
    @FunctionalInterface
    interface Body {
        boolean run(Connection c) throws SQLException;
    }

    private CasTransaction() {
    }

    /**
     * One compare-and-set on a connection already in manual-commit mode: commits when {@code body}
     * hit, rolls back a miss or a failure. A lost race is false; other failures are thrown.
     */
    static boolean inTransaction(Connection c, Supplier<String> what, Body body) throws SQLException {
        try {
            boolean hit = body.run(c);
            if (hit) {
                c.commit();
            } else {
                c.rollback();
            }
            return hit;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            if (SqlErrors.isLostRace(e)) {
                LOG.info("{}: lost the race ({})", what.get(), e.getMessage());
                return false;
            }
            throw e;
        }
    }

    /** {@code action}: what failed, as a user may read it (no id); {@code what}: the same with its ids, for the log. */
    static boolean run(ConnectionSource source, long clusterId, String action, Supplier<String> what, Body body) {
        try (Connection c = source.open()) {
            boolean autoCommit = c.getAutoCommit();
            if (autoCommit) {
                c.setAutoCommit(false);
            }
            try {
                return body.run(c);
            } finally {
                if (autoCommit) {
                    try {
                        c.setAutoCommit(true);
                    } catch (SQLException restoreFailure) {
                        LOG.debug("could not restore auto-commit: {}", restoreFailure.getMessage());
                    }
                }
            }
        } catch (SQLException e) {
            if (SqlErrors.isLostRace(e)) {
                LOG.info("{}: lost the race ({})", what.get(), e.getMessage());
                return false;
            }
            throw StateStoreException.ofCluster(action, clusterId, what.get(), e);
        }
    }
}
