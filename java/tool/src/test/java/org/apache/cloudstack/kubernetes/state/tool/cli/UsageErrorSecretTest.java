// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A password given to an option the tool lacks (a typo, an old script) is a usage error that never echoes it. */
class UsageErrorSecretTest {
    private static final String SECRET = "Typed-Pw-4071";

    @Test
    void aPasswordGivenToAnUnknownOptionIsNotEchoed() {
        for (String[] args : List.of(new String[] {"scan", "--password", SECRET},
                new String[] {"explain", "x", "--password=" + SECRET},
                new String[] {"schema", "--pasword", SECRET, "--user", "cloud"})) {
            ToolRun run = ToolRun.of(args);
            assertEquals(2, run.code(), run.err());
            assertFalse(run.out().contains(SECRET) || run.err().contains(SECRET), "a password was printed: " + run.err());
            assertTrue(run.err().contains("unknown option --pas"), run.err());
        }
    }
}
