// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One status scanner pass on its own connection in manual-commit mode, with its statements
 * counted; whatever the pass leaves uncommitted is rolled back and auto-commit restored.
 */
final class ScanPass {
    private static final Logger LOG = LogManager.getLogger(ScanPass.class);

    /** The body of a pass. */
    @FunctionalInterface
    interface Body<T> {
        T run(Connection c, StatementCounter counter) throws SQLException;
    }

    private ScanPass() {
    }

    /** Runs {@code body}; a SQL failure becomes a {@link StateStoreException} naming {@code what}. */
    static <T> T run(ConnectionSource source, String what, Body<T> body) {
        StatementCounter counter = new StatementCounter(source);
        try (Connection c = counter.open()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                return body.run(c, counter);
            } finally {
                restore(c, autoCommit, what);
            }
        } catch (SQLException e) {
            throw new StateStoreException(what, e);
        }
    }

    /** A failure here must not hide the pass's own. */
    private static void restore(Connection c, boolean autoCommit, String what) {
        try {
            c.rollback();
            c.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            LOG.debug("{}: could not restore the connection: {}", what, e.getMessage());
        }
    }
}
