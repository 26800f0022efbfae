// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.internal.SqlErrors;

/**
 * A database failure: no connection, a missing table, a syntax error. On a connection of the
 * library's own, lost races (deadlock, serialization failure, lock wait timeout) never surface as
 * this exception: they are "not changed" results. On the caller's connection (the DAO's joined
 * forms) they do, with {@link #isLostRace()} true: the database may have rolled the caller's
 * transaction back, so a quiet false would let it go on as if nothing happened.
 */
public class StateStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StateStoreException(String message, SQLException cause) {
        super(message + ": " + cause.getMessage() + " (SQLState " + cause.getSQLState() + ", error "
                + cause.getErrorCode() + ")", cause);
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
