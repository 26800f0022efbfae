package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A compare-and-set on a connection of its own in manual-commit mode (the body commits a hit and
 * rolls back a miss). A deadlock, serialization failure or lock wait timeout is a lost race
 * (false); any other failure is a {@link StateStoreException} naming {@code what} (built only then).
 */
final class ManualCommitWrite {
    private static final Logger LOG = LogManager.getLogger(ManualCommitWrite.class);

    /** The compare-and-set itself. */
    @FunctionalInterface
    interface Body {
        boolean run(Connection c) throws SQLException;
    }

    private ManualCommitWrite() {
    }

    static boolean run(ConnectionSource source, Supplier<String> what, Body body) {
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
            throw new StateStoreException(what.get(), e);
        }
    }
}
