// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run its peers judged gone (a paused server) may still end its own operation: a zombie completion
 * is one that hits after another run changed the cluster, not one that hits before anyone did.
 */
class ProcessCheckerTest {
    private static final long MSID_BASE = 1000;
    private static final long RUN_A = 11;
    private static final long RUN_B = 22;

    @TempDir
    Path dir;

    private ProcessChecker replay(String... serverBLines) throws IOException {
        List<ScriptedOperation> script = List.of(new ScriptedOperation(0, 0, 0, SimOperation.STOP, 0, 1, false, false));
        Path a = Files.write(dir.resolve("a.log"), List.of(
                "100 START 0 " + (MSID_BASE + 1) + " " + RUN_A + " 1",
                "200 ENTERED 0 7 ENTERED Stopping",
                "900 COMPLETED 0 7 true true false"));
        Path b = Files.write(dir.resolve("b.log"), List.of(serverBLines));
        Path parent = Files.write(dir.resolve("parent.log"), List.of("950 EXIT 0 " + RUN_A));
        ProcessChecker checker = new ProcessChecker(script, MSID_BASE);
        checker.replay(List.of(a, b), parent);
        return checker;
    }

    /** Zombie completions counted when server B's log (after its START and its PEER_DOWN of A) holds {@code more}. */
    private long zombies(String... more) throws IOException {
        List<String> b = new java.util.ArrayList<>(List.of("150 START 1 " + (MSID_BASE + 2) + " " + RUN_B + " 2",
                "300 PEER_DOWN " + (MSID_BASE + 1) + " " + RUN_A));
        b.addAll(List.of(more));
        return replay(b.toArray(new String[0])).monitor.zombieCompletions.get();
    }

    @Test
    void aJudgedRunEndingItsOwnOperationBeforeAnyoneTouchedTheClusterIsNoZombie() throws IOException {
        assertEquals(0, zombies());
    }

    @Test
    void aJudgedRunWhoseCompletionHitsAfterAPeerRecoveredTheClusterIsAZombie() throws IOException {
        assertEquals(1, zombies("400 RECOVERED 7 true"));
    }

    @Test
    void aRecoveryOfAnotherClusterChangesNothingUnderTheOperation() throws IOException {
        assertEquals(0, zombies("400 RECOVERED 8 true"));
    }
}
