// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.settings;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;

/**
 * CloudStack's global settings as its own server has them: the {@code configuration} table, where
 * the effective value of a key is {@code value}, else {@code default_value}. Reads only.
 */
public final class CloudStackConfiguration {
    /**
     * Milliseconds without a heartbeat before a management server self-fences and its peers judge it
     * gone ({@code ClusterManager.HeartbeatThreshold} in CloudStack's
     * {@code framework/cluster/src/main/java/com/cloud/cluster/ClusterManager.java}, apache/cloudstack
     * 400e1ee7; dynamic).
     */
    public static final String HEARTBEAT_THRESHOLD = "cluster.heartbeat.threshold";
    /** Its default there. */
    public static final long DEFAULT_HEARTBEAT_THRESHOLD_MILLIS = 150_000;

    private CloudStackConfiguration() {
    }

    /** The effective values of {@code keys}; a key without a row, without a value, or without a table is absent. */
    public static Map<String, String> values(Connection c, Collection<String> keys) throws SQLException {
        Map<String, String> out = new HashMap<>();
        if (keys.isEmpty() || !CloudStackSchema.tableExists(c, "configuration")) {
            return out;
        }
        String marks = String.join(", ", keys.stream().map(k -> "?").toList());
        try (PreparedStatement ps = c.prepareStatement("SELECT name, COALESCE(`value`, default_value) FROM configuration"
                + " WHERE name IN (" + marks + ")")) {
            int i = 1;
            for (String key : keys) {
                ps.setString(i++, key);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(2) != null) {
                        out.put(rs.getString(1), rs.getString(2).strip());
                    }
                }
            }
        }
        return out;
    }

    /** A positive whole number of {@code values}, else {@code fallback} (absent, or not such a number). */
    public static long positive(Map<String, String> values, String key, long fallback) {
        String v = values.get(key);
        return v != null && v.matches("[0-9]{1,12}") && Long.parseLong(v) > 0 ? Long.parseLong(v) : fallback;
    }

    /** The deployment's {@value #HEARTBEAT_THRESHOLD} in milliseconds (its default without a setting). */
    public static long heartbeatThresholdMillis(Connection c) throws SQLException {
        return positive(values(c, List.of(HEARTBEAT_THRESHOLD)), HEARTBEAT_THRESHOLD,
                DEFAULT_HEARTBEAT_THRESHOLD_MILLIS);
    }
}
