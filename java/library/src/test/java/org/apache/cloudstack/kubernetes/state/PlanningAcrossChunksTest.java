// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The native planner reads the job ids in chunks of a few thousand: plans and bad-id reports must
 * not depend on where a chunk ends.
 */
class PlanningAcrossChunksTest {
    private static final int JOBS = 20_000;

    private final ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);

    @Test
    void aLargePlanIsTheSetOfCandidatesWithoutAJob() {
        SplittableRandom random = new SplittableRandom(3);
        List<ClusterSnapshot<State>> candidates = new ArrayList<>();
        for (long id = 1; id <= 5_000; id++) {
            candidates.add(new ClusterSnapshot<>(id, id % 2 == 0 ? State.Scaling : State.Upgrading));
        }
        long[] jobs = new long[JOBS];
        Set<Long> withJob = new HashSet<>();
        for (int i = 0; i < JOBS; i++) {
            long id;
            do {
                id = 1 + random.nextInt(10_000);
            } while (id <= 5_000 && id % 97 == 0); // these candidates are the orphans
            jobs[i] = id;
            withJob.add(id);
        }
        Set<Long> expected = new TreeSet<>();
        for (ClusterSnapshot<State> c : candidates) {
            if (!withJob.contains(c.id())) {
                expected.add(c.id());
            }
        }
        RecoveryPlan<State, Event> plan = machine.planRecovery(candidates, jobs);

        Set<Long> recovered = new TreeSet<>();
        plan.recoveries().forEach(r -> recovered.add(r.clusterId()));
        assertEquals(RecoveryPlan.Kind.RECOVER, plan.kind());
        assertEquals(expected, recovered);
        assertTrue(expected.size() >= 5_000 / 97, "every multiple of 97 up to 5000 is an orphan: " + expected.size());
    }

    @Test
    void anUnknownJobInALaterChunkStillMakesThePlanWait() {
        List<ClusterSnapshot<State>> candidates = List.of(new ClusterSnapshot<>(1, State.Scaling));
        long[] jobs = new long[JOBS];
        Arrays.fill(jobs, 2);
        jobs[JOBS - 1] = -1;
        assertEquals(RecoveryPlan.Kind.WAIT, machine.planRecovery(candidates, jobs).kind());
    }

    @Test
    void aBadJobIdIsReportedWithItsIndexWhereverItIs() {
        List<ClusterSnapshot<State>> scaling = List.of(new ClusterSnapshot<>(1, State.Scaling));
        List<ClusterSnapshot<State>> running = List.of(new ClusterSnapshot<>(1, State.Running));
        long[] jobs = new long[JOBS];
        Arrays.fill(jobs, 1);
        jobs[7_777] = -9;
        badJob(7_777, () -> machine.planRecovery(scaling, jobs));
        // No candidate: the plan needs no job, yet the ids are still checked.
        badJob(7_777, () -> machine.planRecovery(running, jobs));

        long[] afterUnknown = jobs.clone();
        afterUnknown[3] = -1; // ends the marking in the first chunk
        badJob(7_777, () -> machine.planRecovery(scaling, afterUnknown));

        long[] sameChunk = new long[JOBS];
        Arrays.fill(sameChunk, 1);
        sameChunk[100] = -1;
        sameChunk[101] = -3;
        badJob(101, () -> machine.planRecovery(scaling, sameChunk));
    }

    private static void badJob(int index, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains("jobClusterIds[" + index + "]"), e.getMessage());
    }
}
