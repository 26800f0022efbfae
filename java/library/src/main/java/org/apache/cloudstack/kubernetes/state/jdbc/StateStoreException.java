package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.SQLException;

/**
 * A database failure that is not a lost race: no connection, a missing table, a syntax error.
 * Lost races (deadlock, serialization failure, lock wait timeout) never surface as this
 * exception: they are reported as "not changed" results.
 */
public class StateStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StateStoreException(String message, SQLException cause) {
        super(message + ": " + cause.getMessage() + " (SQLState " + cause.getSQLState() + ", error "
                + cause.getErrorCode() + ")", cause);
    }

    /** The SQL exception underneath. */
    public SQLException sqlException() {
        return (SQLException) getCause();
    }
}
