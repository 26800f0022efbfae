// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.alert;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * A management-server alert in CloudStack's alert list (listAlerts, the UI's Alerts), recorded as
 * {@code AlertManagerImpl.sendAlert} records one for {@code ALERT_TYPE_MANAGEMENT_NODE}
 * (server/src/main/java/com/cloud/alert/AlertManagerImpl.java): zone 0, no pod (it finds no pod 0), sent once, times in UTC
 * as CloudStack's DAOs write them. Its e-mail is CloudStack's to send; this only records it.
 */
public final class ManagementServerAlert {
    /** AlertService.AlertType.ALERT_TYPE_MANAGEMENT_NODE (api/src/main/java/org/apache/cloudstack/alert/AlertService.java). */
    public static final int TYPE = 14;
    public static final String NAME = "ALERT.MANAGEMENT";
    /** The alert table's subject column: varchar(999). */
    public static final int SUBJECT_LIMIT = 999;
    /** The alert table's content column: varchar(5000). */
    public static final int CONTENT_LIMIT = 5000;

    private ManagementServerAlert() {
    }

    /** The id of an alert of this type with this subject that nobody has archived yet, if there is one. */
    public static OptionalLong unarchived(Connection c, String subject) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM alert WHERE type = ? AND subject = ? AND archived = 0"
                + " ORDER BY id DESC")) {
            ps.setInt(1, TYPE);
            ps.setString(2, subject);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /** Records the alert; its id. */
    public static long raise(Connection c, String subject, String content) throws SQLException {
        if (subject.isEmpty() || subject.length() > SUBJECT_LIMIT || content.length() > CONTENT_LIMIT) {
            throw new IllegalArgumentException("an alert's subject takes 1 to " + SUBJECT_LIMIT + " characters and its content"
                    + " up to " + CONTENT_LIMIT + " (the alert table's columns)");
        }
        LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC).withNano(0);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO alert (uuid, type, cluster_id, pod_id, data_center_id,"
                + " subject, content, sent_count, created, last_sent, archived, name) VALUES (?, ?, NULL, NULL, 0, ?, ?, 1, ?, ?, 0, ?)",
                PreparedStatement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setInt(2, TYPE);
            ps.setString(3, subject);
            ps.setString(4, content);
            ps.setObject(5, now);
            ps.setObject(6, now);
            ps.setString(7, NAME);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new SQLException("the database returned no id for the new alert");
                }
                return keys.getLong(1);
            }
        }
    }
}
