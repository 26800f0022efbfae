// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.apache.cloudstack.kubernetes.state.tool.text.Terminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A tenant names a cluster with terminal escapes (the trial's name cleared the screen and printed
 * "no stuck Kubernetes cluster" over the real finding): scan, explain and the overdue report print
 * the name escaped, so the operator's screen shows what the database holds.
 */
class TerminalEscapesTest {
    /** Clears the screen, homes the cursor, forges a report line, and reorders what follows. */
    static final String HOSTILE = "\u001b[2J\u001b[Hno stuck Kubernetes cluster\r\n\u202eevil\u009b31m";
    static final String HOSTILE_SHOWN = "\\x1b[2J\\x1b[Hno stuck Kubernetes cluster\\x0d\\x0a\\u202eevil\\x9b31m";

    /** No character a terminal acts on, whatever the fields held. */
    private static void assertInert(String out) {
        for (int i = 0; i < out.length(); i++) {
            char ch = out.charAt(i);
            boolean allowed = ch == '\n' || ch >= 0x20 && ch < 0x7f || ch > 0x9f && !(ch >= 0x202a && ch <= 0x202e)
                    && !(ch >= 0x2066 && ch <= 0x2069);
            assertTrue(allowed, "character U+" + Integer.toHexString(ch) + " at " + i + " reached the terminal: " + out);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ToolDatabase.class)
    void scanExplainAndTheOverdueReportPrintATenantsEscapesInert(ToolDatabase db) throws SQLException {
        db.reset();
        long stuck;
        long overdue;
        try (Connection c = db.connect()) {
            CloudStackRows rows = CloudStackRows.on(c);
            stuck = rows.cluster(HOSTILE, "uuid-hostile-stuck", "Scaling", false);
            overdue = rows.cluster(HOSTILE + "2", "uuid-hostile-overdue", "Stopping", false);
            rows.job().cmd(org.apache.cloudstack.kubernetes.state.ClusterCommandSet.STOP).cluster(overdue)
                    .msid(7001).age(90000).insert();
            rows.mshost(7001).state("Up").runid(1).insert();
        }
        ToolRun scan = ToolRun.of("scan", "--jdbc-url", db.url());
        assertEquals(0, scan.code(), scan.err());
        assertInert(scan.out());
        assertTrue(scan.out().contains("  " + stuck + " uuid-hostile-stuck " + HOSTILE_SHOWN + ": Scaling -> Running"), scan.out());
        assertTrue(scan.out().contains("overdue:") && scan.out().contains(HOSTILE_SHOWN + "2"), scan.out());
        assertFalse(scan.out().lines().anyMatch(l -> l.startsWith("no stuck")), "no forged line: " + scan.out());

        ToolRun applied = ToolRun.of("scan", "--jdbc-url", db.url(), "--apply");
        assertEquals(0, applied.code(), applied.err());
        assertInert(applied.out());
        assertTrue(applied.out().contains("  " + stuck + " uuid-hostile-stuck " + HOSTILE_SHOWN + ": done"), applied.out());

        for (String cluster : List.of(String.valueOf(stuck), String.valueOf(overdue), "uuid-hostile-overdue")) {
            ToolRun explain = ToolRun.of("explain", "--jdbc-url", db.url(), cluster);
            assertEquals(0, explain.code(), explain.err());
            assertInert(explain.out());
            assertTrue(explain.out().contains(HOSTILE_SHOWN), explain.out());
        }
        ToolRun json = ToolRun.of("scan", "--jdbc-url", db.url(), "--format", "json");
        assertInert(json.out());
    }

    @Test
    void eachKindOfCharacterATerminalActsOnIsEscaped() {
        assertEquals(HOSTILE_SHOWN, Terminal.field(HOSTILE));
        assertEquals("a\\\\x1b", Terminal.field("a\\x1b"), "a backslash is escaped, so an escape cannot be forged");
        assertEquals("\\x7f\\x85\\u2066\\u200f", Terminal.field("\u007f\u0085\u2066\u200f"));
        assertEquals("plain name-1 ü 日本", Terminal.field("plain name-1 ü 日本"));
        assertEquals("null", Terminal.field(null));
    }
}
