// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackRows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shipping host checked against the model: the seeded schedules of the deterministic
 * simulation ({@code tests/differential_schedules.rs} records them, with the simulation's own host
 * steps, {@code tests/sim/worker.rs} and {@code scanner.rs}) replayed through the Java guard and
 * scanner on H2. Fails on the first step where a decision, a compare-and-set or a cluster row
 * differs, naming the seed and the line.
 */
class DifferentialReplayTest {

    /** Kinds of step and result every mode's schedules must reach, or the check proves little. */
    private static final List<String> MUST_SEE = List.of("enter Start in", "enter Destroy failed", "scale scale in",
            "complete", "scanner recover [h]", "scanner reconcile [h]", "scanner read-jobs", "scanner list");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compat", "fenced"})
    void javaTakesTheSimulationsStepsOnEverySchedule(String mode) throws Exception {
        List<ReplaySchedule> schedules = ReplaySchedule.load("/differential/" + mode + ".schedules");
        Databases.Db h2 = Databases.perDatabase().filter(db -> !db.isMariaDb()).findFirst().orElseThrow();
        Map<String, Integer> seen = new TreeMap<>();
        int steps = 0;
        for (ReplaySchedule schedule : schedules) {
            assertEquals(mode, schedule.mode().name().toLowerCase(java.util.Locale.ROOT), "a schedule of another mode");
            new ScheduleReplay(schedule, h2, seen).run();
            steps += schedule.lines().stream().filter(l -> l instanceof ReplaySchedule.Step).count();
        }
        try (Connection c = h2.connect()) {
            CloudStackRows.reset(c);
        }
        System.out.printf("differential replay, %s: %d schedules, %d steps%n", mode, schedules.size(), steps);
        seen.forEach((k, v) -> System.out.printf("  %6d  %s%n", v, k));
        for (String kind : MUST_SEE) {
            String key = mode + ": " + kind;
            assertTrue(seen.keySet().stream().anyMatch(k -> k.startsWith(key)), "no schedule replays " + key);
        }
    }
}
