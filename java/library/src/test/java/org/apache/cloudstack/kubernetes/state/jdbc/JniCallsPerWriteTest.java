// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One native ask per write: a write the core decided crosses JNI once, in the call that decided it,
 * and is not checked again; a write the host built is checked in one call; a scanner pass asks once
 * whatever the number of clusters it writes.
 */
@Tag("test-hooks")
class JniCallsPerWriteTest {
    private static final Databases.Db H2 = Databases.perDatabase().findFirst().orElseThrow();

    @ParameterizedTest(name = "{0}: one native call per write on every path")
    @EnumSource(StateMode.class)
    void oneNativeCallPerWrite(StateMode mode) throws Exception {
        Map<String, Map<String, Long>> calls = WritePaths.calls(H2, mode);
        assertEquals(Map.of("entry", 1L), calls.get("guarded entry"));
        assertEquals(Map.of("completion", 1L), calls.get("completion"));
        assertEquals(Map.of("upstreamWrite", 1L), calls.get("updateState"));
        if (mode == StateMode.COMPAT) {
            assertEquals(Map.of("writeShapeError", 1L), calls.get("apply(StateUpdate), host-built"));
        }
        assertEquals(Map.of("planRecovery", 1L), calls.get("scanner recovery, 1 orphan"));
        assertEquals(calls.get("scanner recovery, 1 orphan"), calls.get("scanner recovery, 4 orphans"),
                "a pass's native calls do not grow with the clusters it writes");
    }
}
