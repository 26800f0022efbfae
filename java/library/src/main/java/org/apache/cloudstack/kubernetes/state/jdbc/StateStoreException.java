// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.sql.SqlErrors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A database failure: no connection, a missing table, a syntax error. On a connection of the
 * library's own, lost races (deadlock, serialization failure, lock wait timeout) never surface as
 * this exception: they are "not changed" results. On the caller's connection (the DAO's joined
 * forms) they do, with {@link #isLostRace()} true: the database may have rolled the caller's
 * transaction back, so a quiet false would let it go on as if nothing happened.
 */
public class StateStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LogManager.getLogger(StateStoreException.class);
    /** {@link #clusterId()} of a failure that is not about one cluster. */
    public static final long NO_CLUSTER = -1L;

    private final long clusterId;

    public StateStoreException(String message, SQLException cause) {
        this(message, NO_CLUSTER, cause);
    }

    private StateStoreException(String message, long clusterId, SQLException cause) {
        super(message + ": " + cause.getMessage() + " (SQLState " + cause.getSQLState() + ", error "
                + cause.getErrorCode() + ")", cause);
        this.clusterId = clusterId;
    }

    /**
     * A failure on one cluster. Its message, which may reach an API user, names no database id; the
     * cluster's id and {@code detail} (the write, with its owner) are logged here, and {@link #clusterId()}
     * gives the id to the caller's log.
     */
    static StateStoreException ofCluster(String action, long clusterId, String detail, SQLException cause) {
        StateStoreException e = new StateStoreException(action, clusterId, cause);
        LOG.warn("Kubernetes cluster {}: {} failed ({})", clusterId, detail, e.getMessage());
        return e;
    }

    /** {@link #ofCluster(String, long, String, SQLException)} whose log line says no more than its message. */
    static StateStoreException ofCluster(String action, long clusterId, SQLException cause) {
        return ofCluster(action, clusterId, action, cause);
    }

    /** The id of the cluster whose row the failure was about, or {@link #NO_CLUSTER}. */
    public long clusterId() {
        return clusterId;
    }

    /** True when the failure is a lost race: the caller may say "please retry" (after its rollback). */
    public boolean isLostRace() {
        return SqlErrors.isLostRace(sqlException());
    }

    /** The SQL exception underneath. */
    public SQLException sqlException() {
        return (SQLException) getCause();
    }
}
