// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import org.h2.api.Trigger;

/** H2's twin of the MariaDB history trigger of {@link StandInSchema#createHistory} (H2 triggers are classes). */
public final class StateHistoryTrigger implements Trigger {
    private int id = -1;
    private int state = -1;

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
            int type) throws SQLException {
        try (ResultSet rs = conn.getMetaData().getColumns(null, schemaName, tableName, null)) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT);
                if (column.equals("id")) {
                    id = rs.getInt("ORDINAL_POSITION") - 1;
                } else if (column.equals("state")) {
                    state = rs.getInt("ORDINAL_POSITION") - 1;
                }
            }
        }
        if (id < 0 || state < 0) {
            throw new SQLException("StateHistoryTrigger on " + tableName + ": no id or state column");
        }
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        if (oldRow == null || newRow == null) {
            return;
        }
        String from = String.valueOf(oldRow[state]).strip();
        String to = String.valueOf(newRow[state]).strip();
        if (from.equals(to)) {
            return;
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + StandInSchema.HISTORY_TABLE
                + " (cluster_id, from_state, to_state, `at`) VALUES (?, ?, ?, CURRENT_TIMESTAMP(3))")) {
            ps.setLong(1, ((Number) newRow[id]).longValue());
            ps.setString(2, from);
            ps.setString(3, to);
            ps.executeUpdate();
        }
    }
}
