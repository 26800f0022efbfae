// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.cloudstack.kubernetes.state.sql.JobCmdInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobCmdInfoTest {
    private static final String UUID = "5b7a9d1e-0f8c-4a7b-9a55-3c2d1e0f9a8b";

    @Test
    void readsTheTopLevelIdOfACloudStackCommand() {
        assertEquals(UUID, JobCmdInfo.clusterUuid(Fixtures.cmdInfo(UUID)));
    }

    @Test
    void ignoresIdsInsideNestedObjectsAndStrings() {
        String json = "{\"ctxDetails\":\"{\\\"id\\\":\\\"wrong-1\\\"}\",\"nested\":{\"id\":\"wrong-2\",\"a\":[1,{\"id\":\"w3\"}]},"
                + "\"list\":[\"id\",\"x\"],\"id\":\"" + UUID + "\"}";
        assertEquals(UUID, JobCmdInfo.clusterUuid(json));
    }

    @Test
    void decodesEscapesAndToleratesWhitespace() {
        assertEquals("ab/c\"d", JobCmdInfo.topLevelString(" \n{ \"x\" : true , \"id\" :\t\"a\\u0062\\/c\\\"d\" }", "id"));
        assertEquals(UUID, JobCmdInfo.clusterUuid("\uFEFF{\"id\": \"" + UUID + "\"}"));
    }

    @Test
    void firstOccurrenceWins() {
        assertEquals("first", JobCmdInfo.topLevelString("{\"id\":\"first\",\"id\":\"second\"}", "id"));
    }

    @Test
    void valueBeforeAMalformedTailIsStillFound() {
        assertEquals(UUID, JobCmdInfo.clusterUuid("{\"id\":\"" + UUID + "\", garbage"));
    }

    @ParameterizedTest(name = "malformed or absent -> null: {0}")
    @ValueSource(strings = {"", " ", "null", "[]", "[{\"id\":\"x\"}]", "\"id\"", "{", "{}", "{\"id\"", "{\"id\":",
        "{\"id\":\"unterminated", "{\"id\":123}", "{\"id\":null}", "{\"id\":{\"id\":\"x\"}}", "{\"id\":\"\"}",
        "{\"id\":\"   \"}", "{\"a\":\"\\q\",\"id\":\"x\"}", "{\"a\":\"\\u12\"}", "{\"a\" \"b\",\"id\":\"x\"}",
        "{\"a\":}", "{\"a\":1 \"id\":\"x\"}", "{\"a\":[1,2}", "{,}", "{\"a\":1,}", "not json at all",
        "{\"id\":\"0123456789012345678901234567890123456789X\"}", "{\"x\":\"y\"}}}}", "{\"id\":\"\\"})
    void malformedNeverThrows(String json) {
        assertNull(JobCmdInfo.clusterUuid(json));
    }

    @Test
    void nullInput() {
        assertNull(JobCmdInfo.clusterUuid(null));
        assertNull(JobCmdInfo.topLevelString("{\"id\":\"x\"}", null));
    }

    @Test
    void deeplyNestedValuesAreSkippedWithoutRecursion() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        assertEquals(UUID, JobCmdInfo.clusterUuid("{\"deep\":" + deep + ",\"id\":\"" + UUID + "\"}"));
        assertNull(JobCmdInfo.clusterUuid("{\"deep\":" + "[".repeat(100_000)));
    }
}
