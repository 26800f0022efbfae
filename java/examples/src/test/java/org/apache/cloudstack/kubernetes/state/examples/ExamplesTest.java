// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.examples.HostCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The first program of docs/java-api.md, run against H2 and MariaDB. The docs' snippets of plugin
 * code are the patched plugin's, tested by CloudStack's own tests in the series (make cloudstack).
 */
class ExamplesTest {
    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theFirstProgram(ExampleDatabase db) throws SQLException {
        db.reset();
        long id = db.cluster("Running");
        FirstProgram.Answers answers = FirstProgram.run(db.connections(), id);
        assertEquals(new FirstProgram.Answers(State.Scaling, EntryDecision.Kind.NOTHING_TO_DO, true), answers);
        assertEquals("Stopping", db.state(id));
    }
}
