// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How the kit writes a row, and what it asks the database first (is it H2, has it a table). The kit
 * cannot use the library's helpers for the clock and the tables (DatabaseClock, CloudStackSchema): it
 * does not depend on the library, so that the library's own tests can depend on it.
 */
final class RowWriter {
    private RowWriter() {
    }

    /**
     * "Now" in the time base of CloudStack's DATETIME columns: UTC ({@code DateUtil.currentGMTTime()}),
     * so {@code UTC_TIMESTAMP()} on MariaDB and MySQL; H2 has none, and its {@code NOW()} is the JVM's
     * zone, which the tests and the simulator write with too.
     */
    static String utcNow(Connection c) throws SQLException {
        return isH2(c) ? "NOW()" : "UTC_TIMESTAMP()";
    }

    static boolean isH2(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("h2");
    }

    /** True when {@code table} exists, in lower or upper case (H2 folds unquoted names to upper). */
    static boolean tableExists(Connection c, String table) throws SQLException {
        for (String name : new String[] {table, table.toUpperCase(Locale.ROOT)}) {
            try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), null, name, null)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The lower-case type name of {@code table.column}, or null when it has no such column. */
    static String columnType(Connection c, String table, String column) throws SQLException {
        for (String t : new String[] {table, table.toUpperCase(Locale.ROOT)}) {
            for (String col : new String[] {column, column.toUpperCase(Locale.ROOT)}) {
                try (ResultSet rs = c.getMetaData().getColumns(c.getCatalog(), null, t, col)) {
                    if (rs.next()) {
                        return rs.getString("TYPE_NAME").toLowerCase(Locale.ROOT);
                    }
                }
            }
        }
        return null;
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    /** Inserts {@code values}, and {@code sqlValues} as SQL expressions (times). */
    static void insertRow(Connection c, String table, Map<String, Object> values, Map<String, String> sqlValues)
            throws SQLException {
        try (PreparedStatement ps = prepare(c, table, values, sqlValues, false)) {
            ps.executeUpdate();
        }
    }

    static long insertReturningId(Connection c, String table, Map<String, Object> values, String createdColumn,
            boolean removed) throws SQLException {
        return insertReturningId(c, table, values, Map.of(createdColumn, utcNow(c)), removed);
    }

    static long insertReturningId(Connection c, String table, Map<String, Object> values,
            Map<String, String> sqlValues, boolean removed) throws SQLException {
        Map<String, String> times = new LinkedHashMap<>(sqlValues);
        if (removed) {
            times.put("removed", utcNow(c));
        }
        try (PreparedStatement ps = prepare(c, table, values, times, true)) {
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    static PreparedStatement prepare(Connection c, String table, Map<String, Object> values, Map<String, String> sqlValues,
            boolean keys) throws SQLException {
        StringBuilder cols = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (String col : values.keySet()) {
            cols.append(cols.length() == 0 ? "" : ", ").append('`').append(col).append('`');
            marks.append(marks.length() == 0 ? "?" : ", ?");
        }
        for (Map.Entry<String, String> e : sqlValues.entrySet()) {
            cols.append(", `").append(e.getKey()).append('`');
            marks.append(", ").append(e.getValue());
        }
        String sql = "INSERT INTO " + table + " (" + cols + ") VALUES (" + marks + ")";
        PreparedStatement ps = keys ? c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS) : c.prepareStatement(sql);
        int i = 1;
        for (Object v : values.values()) {
            ps.setObject(i++, v);
        }
        return ps;
    }
}
