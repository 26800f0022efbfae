// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * Where the JDBC classes of cks-state get their connections: a pool in the management server
 * (CloudStack's {@code TransactionLegacy} data source), {@link java.sql.DriverManager} in tests.
 *
 * <p>Every caller closes the connection it opened (returning it to a pool). The classes of this
 * package set auto-commit and transaction boundaries themselves and restore auto-commit before
 * closing; they never change the isolation level: that is the source's business.
 */
@FunctionalInterface
public interface ConnectionSource {

    /** A connection the caller closes. */
    Connection open() throws SQLException;

    /** A source backed by a {@link DataSource} (a pool). */
    static ConnectionSource of(DataSource dataSource) {
        Arguments.required(dataSource, "dataSource");
        return dataSource::getConnection;
    }
}
