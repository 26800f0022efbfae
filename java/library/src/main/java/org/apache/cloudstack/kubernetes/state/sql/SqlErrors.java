// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.sql;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;

/**
 * Classifies SQL failures of a compare-and-set. A transaction that the database aborted to break
 * a deadlock, a serialization failure, or a lock wait that timed out means another writer holds
 * or held the row: for a compare-and-set this is "lost the race", reported as {@code false}, never
 * as an exception.
 */
public final class SqlErrors {
    /** MySQL / MariaDB ER_LOCK_DEADLOCK. */
    public static final int MYSQL_DEADLOCK = 1213;
    /** MySQL / MariaDB ER_LOCK_WAIT_TIMEOUT. */
    public static final int MYSQL_LOCK_WAIT_TIMEOUT = 1205;
    /** H2 LOCK_TIMEOUT_1. */
    public static final int H2_LOCK_TIMEOUT = 50200;
    /** H2 DEADLOCK_1 (SQLState 40001). */
    public static final int H2_DEADLOCK = 40001;
    /** H2 CONCURRENT_UPDATE_1: another transaction changed the row (a serialization failure). */
    public static final int H2_CONCURRENT_UPDATE = 90131;

    private SqlErrors() {
    }

    /**
     * True when the exception (or one chained to it by {@code getNextException} / cause) is a
     * deadlock, a serialization failure (SQLState class 40, e.g. 40001; H2 90131), or a lock wait
     * timeout (MySQL 1205, H2 50200).
     */
    public static boolean isLostRace(SQLException e) {
        int guard = 0;
        for (Throwable t = e; t != null && guard < 16; guard++) {
            if (t instanceof SQLException) {
                SQLException s = (SQLException) t;
                if (isLostRaceOne(s)) {
                    return true;
                }
                SQLException next = s.getNextException();
                if (next != null && next != s && isLostRaceOne(next)) {
                    return true;
                }
            }
            Throwable cause = t.getCause();
            t = cause == t ? null : cause;
        }
        return false;
    }

    private static boolean isLostRaceOne(SQLException s) {
        if (s instanceof SQLTransactionRollbackException) {
            return true;
        }
        String state = s.getSQLState();
        if (state != null && state.startsWith("40")) {
            return true;
        }
        int code = s.getErrorCode();
        return code == MYSQL_DEADLOCK || code == MYSQL_LOCK_WAIT_TIMEOUT || code == H2_LOCK_TIMEOUT
                || code == H2_DEADLOCK || code == H2_CONCURRENT_UPDATE;
    }
}
