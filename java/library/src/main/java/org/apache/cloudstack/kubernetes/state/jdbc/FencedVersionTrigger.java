// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import org.h2.api.Trigger;

/**
 * The H2 twin of the MariaDB trigger in {@code fenced-trigger-mariadb.sql} (H2 triggers are Java
 * classes): an UPDATE of {@code kubernetes_cluster} that changes {@code state} but not
 * {@code state_version} gets the version bumped and the owner columns cleared.
 */
public final class FencedVersionTrigger implements Trigger {
    private int state = -1;
    private int version = -1;
    private int msid = -1;
    private int runid = -1;
    private int job = -1;

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
            int type) throws SQLException {
        try (ResultSet rs = conn.getMetaData().getColumns(null, schemaName, tableName, null)) {
            while (rs.next()) {
                int index = rs.getInt("ORDINAL_POSITION") - 1;
                String column = rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT);
                if (column.equals("state")) {
                    state = index;
                } else if (column.equals(FenceColumnsSql.VERSION)) {
                    version = index;
                } else if (column.equals(FenceColumnsSql.OWNER_MSID)) {
                    msid = index;
                } else if (column.equals(FenceColumnsSql.OWNER_RUNID)) {
                    runid = index;
                } else if (column.equals(FenceColumnsSql.JOB)) {
                    job = index;
                }
            }
        }
        if (state < 0 || version < 0 || msid < 0 || runid < 0 || job < 0) {
            throw new SQLException("FencedVersionTrigger on " + tableName + ": the fenced columns are missing");
        }
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        if (oldRow == null || newRow == null) {
            return;
        }
        boolean stateChanged = !String.valueOf(oldRow[state]).strip().equals(String.valueOf(newRow[state]).strip());
        if (stateChanged && ((Number) oldRow[version]).longValue() == ((Number) newRow[version]).longValue()) {
            newRow[version] = ((Number) oldRow[version]).longValue() + 1;
            newRow[msid] = null;
            newRow[runid] = null;
            newRow[job] = null;
        }
    }
}
