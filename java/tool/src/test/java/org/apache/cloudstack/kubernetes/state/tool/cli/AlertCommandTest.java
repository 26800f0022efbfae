// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * cks-state alert on CloudStack's own database: a management-server alert recorded as CloudStack records
 * one (listAlerts shows it), once while it is not archived; a dry run and bad input record nothing.
 */
class AlertCommandTest {
    private static final String SUBJECT = "cks-state test: management server ms1 started without cks-state";

    /** The test's alerts: type, zone, pod, cluster, sent count, archived, name, content, minutes from UTC now. */
    private static List<String> alerts(ToolDatabase db) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT type, data_center_id, pod_id, cluster_id, sent_count, archived, name,"
                        + " content, ABS(TIMESTAMPDIFF(MINUTE, created, UTC_TIMESTAMP())) < 5, created = last_sent,"
                        + " uuid IS NOT NULL FROM alert WHERE subject = '" + SUBJECT + "' ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + " " + rs.getLong(2) + " " + rs.getString(3) + " " + rs.getString(4) + " " + rs.getInt(5)
                        + " " + rs.getInt(6) + " " + rs.getString(7) + " " + rs.getString(8) + " " + rs.getBoolean(9) + " "
                        + rs.getBoolean(10) + " " + rs.getBoolean(11));
            }
        }
        return rows;
    }

    private static void clear(ToolDatabase db) throws SQLException {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM alert WHERE subject LIKE 'cks-state test:%'");
        }
    }

    @ParameterizedTest
    @EnumSource(value = ToolDatabase.class, names = {"MARIADB", "CONNECTOR_J"})
    void raisesOneManagementServerAlertUntilItIsArchived(ToolDatabase db) throws SQLException {
        clear(db);
        String[] args = {"alert", "--jdbc-url", db.url(), "--subject", SUBJECT, "--content", "built for 4.20.3.0\nsee doctor"};
        ToolRun dry = ToolRun.of(args);
        assertEquals(0, dry.code(), dry.err());
        assertEquals("would raise a management-server alert (dry run; --apply records it)\n", dry.out());
        assertEquals(List.of(), alerts(db), "a dry run records nothing");

        String[] apply = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--apply"))
                .toArray(String[]::new);
        ToolRun raised = ToolRun.of(apply);
        assertEquals(0, raised.code(), raised.err());
        assertTrue(raised.out().matches("raised management-server alert \\d+\n"), raised.out());
        String row = "14 0 null null 1 0 ALERT.MANAGEMENT built for 4.20.3.0\nsee doctor true true true";
        assertEquals(List.of(row), alerts(db));

        ToolRun again = ToolRun.of(apply);
        assertEquals(0, again.code(), again.err());
        assertEquals("alert " + raised.out().replaceAll("\\D", "") + " has this subject and is not archived: left as it is\n",
                again.out());
        assertEquals(List.of(row), alerts(db), "raised once while not archived");

        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE alert SET archived = 1 WHERE subject = '" + SUBJECT + "'");
        }
        assertEquals(0, ToolRun.of(apply).code());
        assertEquals(List.of(row.replace(" 1 0 ALERT", " 1 1 ALERT"), row), alerts(db), "archived, it is raised again");
        clear(db);
    }

    @ParameterizedTest
    @EnumSource(value = ToolDatabase.class, names = {"MARIADB"})
    void badInputIsAUsageErrorAndRecordsNothing(ToolDatabase db) throws SQLException {
        clear(db);
        String url = db.url();
        ToolRun tooLong = ToolRun.of("alert", "--jdbc-url", url, "--subject", SUBJECT + "x".repeat(999), "--apply");
        assertEquals(2, tooLong.code());
        assertTrue(tooLong.err().startsWith("cks-state alert: --subject takes 1 to 999 characters (the alert table's column),"
                + " not " + (SUBJECT.length() + 999) + "\n"), tooLong.err());
        ToolRun twoLines = ToolRun.of("alert", "--jdbc-url", url, "--subject", SUBJECT + "\nsecond", "--apply");
        assertEquals(2, twoLines.code());
        assertTrue(twoLines.err().startsWith("cks-state alert: --subject has a control character: give one line\n"),
                twoLines.err());
        ToolRun empty = ToolRun.of("alert", "--jdbc-url", url, "--subject", "", "--apply");
        assertEquals(2, empty.code());
        ToolRun none = ToolRun.of("alert", "--jdbc-url", url, "--apply");
        assertEquals(2, none.code());
        assertTrue(none.err().contains("Missing required option: '--subject=<subject>'"), none.err());
        assertEquals(List.of(), alerts(db));
    }
}
