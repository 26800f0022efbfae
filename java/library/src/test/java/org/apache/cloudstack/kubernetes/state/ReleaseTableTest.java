// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A CloudStack version, as its database and packages write it, to the table of its release (the core decides). */
class ReleaseTableTest {
    private static void table(String release, Profile profile, ReleaseTable.Fit fit) {
        ReleaseTable t = ReleaseTable.of(release);
        assertEquals(profile, t.profile(), release);
        assertEquals(fit, t.fit(), release);
        assertEquals(release.strip(), t.release());
    }

    @Test
    void eachReleaseGetsItsLinesTable() {
        table("4.20.0.0", Profile.CLOUDSTACK_4_20_0, ReleaseTable.Fit.KNOWN);
        table("4.20.1.0", Profile.CLOUDSTACK_4_20_0, ReleaseTable.Fit.KNOWN);
        table("4.20.2.0", Profile.CLOUDSTACK_4_20_2, ReleaseTable.Fit.KNOWN);
        table("4.20.3.0", Profile.CLOUDSTACK_4_20_2, ReleaseTable.Fit.KNOWN);
        table("4.21.0.0", Profile.CLOUDSTACK_4_21, ReleaseTable.Fit.KNOWN);
        table("4.22.0.0", Profile.CLOUDSTACK_4_22, ReleaseTable.Fit.KNOWN);
        table("4.22.1.1", Profile.CLOUDSTACK_4_22, ReleaseTable.Fit.KNOWN);
        table("4.23.0.0", Profile.CLOUDSTACK_4_23, ReleaseTable.Fit.KNOWN);
        // CloudStackVersion's other forms: three numbers, a branding, a snapshot.
        table("4.20.1", Profile.CLOUDSTACK_4_20_0, ReleaseTable.Fit.KNOWN);
        table("4.22.0.0-SNAPSHOT", Profile.CLOUDSTACK_4_22, ReleaseTable.Fit.KNOWN);
        table(" 4.21.0.0-acme-2 ", Profile.CLOUDSTACK_4_21, ReleaseTable.Fit.KNOWN);
    }

    @Test
    void aReleaseWithoutATableGetsTheNearestAndSaysSo() {
        table("4.19.1.3", Profile.CLOUDSTACK_4_20_0, ReleaseTable.Fit.OLDER);
        // The release after 4.23 is 24.0.0, and its version table holds three numbers.
        table("24.0.0", Profile.CLOUDSTACK_4_23, ReleaseTable.Fit.NEWER);
        assertTrue(ReleaseTable.of("24.0.0").describe().contains("24.0.0 is newer than every table"));
        assertTrue(ReleaseTable.of("4.19.1.3").describe().contains("4.19.1.3 is older than every table"));
        assertEquals("CloudStack 4.20.2.0's", ReleaseTable.of("4.20.2.0").describe());
    }

    @Test
    void aVersionItCannotReadIsAnIllegalArgumentNamingIt() {
        for (String bad : new String[] {"", "4.20", "four.twenty", "4.20.2.0.1", "4.20.123456.0", "-4.20.2.0"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReleaseTable.of(bad), bad);
            assertTrue(e.getMessage().startsWith("release: '" + bad + "'"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReleaseTable.of(null));
        assertTrue(e.getMessage().contains("release"), e.getMessage());
        // A number past the core's range is refused by the core, naming it.
        e = assertThrows(IllegalArgumentException.class, () -> ReleaseTable.of("4.70000.0.0"));
        assertTrue(e.getMessage().contains("minor"), e.getMessage());
    }
}
