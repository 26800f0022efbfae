// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * "Now" in the time base of CloudStack's DATETIME columns, as SQL. CloudStack writes them in UTC
 * ({@code DateUtil.currentGMTTime()}, formatted in GMT by {@code GenericDaoBase}), so on
 * MariaDB/MySQL it is {@code UTC_TIMESTAMP()}, never {@code NOW()}, which is in the database
 * server's time zone. H2, the stand-in, has no {@code UTC_TIMESTAMP()}: there it is {@code NOW()},
 * the JVM's zone, which is also what the tests and the simulator write with.
 */
public final class DatabaseClock {
    private DatabaseClock() {
    }

    /** The SQL expression of the current time in CloudStack's time base on this connection's database. */
    public static String utcNow(Connection c) throws SQLException {
        return isH2(c) ? "NOW()" : "UTC_TIMESTAMP()";
    }

    /** True on H2 (the stand-in database), false on MariaDB and MySQL. */
    public static boolean isH2(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("h2");
    }
}
