// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** The CloudStack release a database is at, read as CloudStack reads it. */
public final class CloudStackRelease {
    /** VersionDaoImpl.getCurrentVersion: the newest row by id whose upgrade step is Complete. */
    static final String CURRENT_SQL = "SELECT version FROM version WHERE step = 'Complete' ORDER BY id DESC LIMIT 1";

    private CloudStackRelease() {
    }

    /** The release of the database's newest Complete `version` row; empty without the table or such a row. */
    public static Optional<String> current(Connection c) throws SQLException {
        if (!CloudStackSchema.tableExists(c, "version")) {
            return Optional.empty();
        }
        try (PreparedStatement ps = c.prepareStatement(CURRENT_SQL); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.ofNullable(rs.getString(1)).map(String::strip) : Optional.empty();
        }
    }
}
