// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import org.apache.cloudstack.kubernetes.state.sql.SqlErrors;
import org.junit.jupiter.api.Test;

/** The classification of SQL failures (real exception objects, as drivers throw them). */
class SqlErrorsTest {

    @Test
    void deadlockSerializationAndLockWaitAreLostRaces() {
        assertTrue(SqlErrors.isLostRace(new SQLTransactionRollbackException("Deadlock found", "40001", 1213)));
        assertTrue(SqlErrors.isLostRace(new SQLException("Deadlock found when trying to get lock", "40001", 1213)));
        assertTrue(SqlErrors.isLostRace(new SQLException("Lock wait timeout exceeded", "HY000", 1205)));
        assertTrue(SqlErrors.isLostRace(new SQLException("serialization failure", "40001", 0)));
        assertTrue(SqlErrors.isLostRace(new SQLException("Timeout trying to lock table", "HYT00", 50200)));
        assertTrue(SqlErrors.isLostRace(new SQLException("Concurrent update to table", "90131", 90131)));
    }

    @Test
    void causesAndNextExceptionsAreFollowed() {
        SQLException outer = new SQLException("batch failed", "HY000", 0);
        outer.setNextException(new SQLException("Deadlock", "40001", 1213));
        assertTrue(SqlErrors.isLostRace(outer));
        assertTrue(SqlErrors.isLostRace(new SQLException("wrapped", "HY000", 0,
                new SQLException("Lock wait timeout", "HY000", 1205))));
    }

    @Test
    void otherFailuresAreNot() {
        assertFalse(SqlErrors.isLostRace(new SQLException("Table 'cloud.kubernetes_cluster' doesn't exist", "42S02", 1146)));
        assertFalse(SqlErrors.isLostRace(new SQLException("Communications link failure", "08S01", 0)));
        assertFalse(SqlErrors.isLostRace(new SQLException("Duplicate entry", "23000", 1062)));
        assertFalse(SqlErrors.isLostRace(new SQLException("no state")));
    }
}
