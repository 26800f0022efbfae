// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Timestamp;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Every time the tool prints has its seconds and its zone, whatever the driver hands over. */
class DatabaseTimeTest {
    @Test
    void aWholeMinuteKeepsItsSeconds() {
        LocalDateTime minute = LocalDateTime.of(2026, 12, 5, 19, 38);
        assertEquals("2026-12-05 19:38:00 UTC", DatabaseTime.text(minute));
        assertEquals("2026-12-05 19:38:00 UTC", DatabaseTime.text(Timestamp.valueOf(minute)));
    }

    @Test
    void fractionsAreDroppedAndOtherValuesPassThrough() {
        assertEquals("2026-12-05 19:38:07 UTC", DatabaseTime.text(LocalDateTime.of(2026, 12, 5, 19, 38, 7, 250_000_000)));
        assertEquals("2026-12-05 19:38:07 UTC", DatabaseTime.text("2026-12-05 19:38:07.25"));
        assertEquals("2026-12-05 UTC", DatabaseTime.text(java.time.LocalDate.of(2026, 12, 5)));
        assertNull(DatabaseTime.text(null));
    }
}
