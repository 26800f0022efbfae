// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.text;

import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A date or time column as the tool prints it: as the database gives it, to the second (whole minutes
 * too: {@code LocalDateTime.toString()} would drop their seconds), with its zone. CloudStack writes its
 * times in UTC (its session's time_zone, and GMT dates from {@code DateUtil}), and so does every writer
 * the tool knows.
 */
public final class DatabaseTime {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private DatabaseTime() {
    }

    /** The column's value as text ({@code 2026-12-01 09:14:02 UTC}), or null. */
    public static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Timestamp t) {
            value = t.toLocalDateTime();
        }
        if (value instanceof LocalDateTime t) {
            return SECONDS.format(t) + " UTC";
        }
        String s = value.toString().replace('T', ' ');
        int dot = s.indexOf('.');
        return (dot > 0 ? s.substring(0, dot) : s) + " UTC";
    }
}
