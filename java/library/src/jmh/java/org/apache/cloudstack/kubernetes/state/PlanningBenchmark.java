// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One scanner pass's recovery planning: {@code clusters} candidates in operation states and ten
 * IN_PROGRESS jobs per candidate (1k/10k, 10k/100k, 100k/1M). 99% of the candidates have a job;
 * the other jobs act on clusters that are not candidates. Through JNI the time includes
 * marshalling the snapshots into primitive arrays and decoding the plan
 * ({@link ClusterStateMachine#planRecovery}); the baseline is a plain-Java HashSet planner.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@org.openjdk.jmh.annotations.State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PlanningBenchmark {
    static final int JOBS_PER_CLUSTER = 10;
    private static final long[] NO_LONGS = {};

    @Param({"1000", "10000", "100000"})
    public int clusters;

    private ClusterStateMachine<State, Event> machine;
    private PureJava.RecoveryPlanner<State, Event> javaPlanner;
    private List<ClusterSnapshot<State>> candidates;
    private long[] jobClusterIds;
    // The same candidates already marshalled: planJniRaw is the native call alone.
    private long[] candidateRows;
    // The floor's buffers: the native side copies the candidates whole and reads the jobs in chunks.
    private long[] candidateCopy;
    private final long[] jobChunk = new long[2 * 1024];
    // The marking floor's bitmap: one bit per id up to the largest candidate's, as jni's dense JobMarks.
    private long[] markBits;
    // The host's enum binding, as planJni's machine marshals with it.
    private EnumBinding<State> stateBinding;

    @Setup
    public void setUp() {
        machine = ClusterStateMachine.bind(State.class, Event.class);
        PureJava.EnumMapTable<State, Event> table =
                new PureJava.EnumMapTable<>(machine.transitions(), State.class, Event.class);
        javaPlanner = new PureJava.RecoveryPlanner<>(machine, table, Event.OperationFailed);

        SplittableRandom random = new SplittableRandom(7);
        State[] orphanStates = machine.orphanStates().toArray(new State[0]);
        candidates = new ArrayList<>(clusters);
        // Ids look like database keys: increasing with gaps; the gaps hold the non-candidates.
        long[] ids = new long[clusters];
        for (int i = 0; i < clusters; i++) {
            ids[i] = 1_000L + 10L * i;
            candidates.add(new ClusterSnapshot<>(ids[i], orphanStates[random.nextInt(orphanStates.length)]));
        }
        List<String> stateNames = List.of(NativeLibrary.stateNames()); // a state's code is its index here
        candidateRows = new long[clusters * NativeCodes.CANDIDATE_WIDTH_COMPAT];
        for (int i = 0; i < clusters; i++) {
            int at = i * NativeCodes.CANDIDATE_WIDTH_COMPAT;
            candidateRows[at + NativeCodes.CANDIDATE_ID] = ids[i];
            candidateRows[at + NativeCodes.CANDIDATE_STATE] = stateNames.indexOf(candidates.get(i).state().name());
        }
        candidateCopy = new long[candidateRows.length];
        markBits = new long[(int) (ids[clusters - 1] >>> 6) + 1];
        stateBinding = EnumBinding.of(State.class, NativeLibrary.stateNames(), "state");
        int jobs = JOBS_PER_CLUSTER * clusters;
        jobClusterIds = new long[jobs];
        int j = 0;
        for (int i = 0; i < clusters; i++) {
            if (i % 100 != 0) { // 1% orphans
                jobClusterIds[j++] = ids[i];
            }
        }
        while (j < jobs) {
            jobClusterIds[j++] = 1_000L + 10L * random.nextInt(clusters) + 1 + random.nextInt(9);
        }
        for (int i = jobs - 1; i > 0; i--) { // shuffle: jobs come in database order, not by cluster
            int k = random.nextInt(i + 1);
            long t = jobClusterIds[i];
            jobClusterIds[i] = jobClusterIds[k];
            jobClusterIds[k] = t;
        }
        RecoveryPlan<State, Event> viaJni = planJni();
        RecoveryPlan<State, Event> viaJava = javaPlanner.plan(candidates, jobClusterIds);
        int expected = (clusters + 99) / 100;
        if (!viaJni.equals(viaJava) || viaJni.recoveries().size() != expected) {
            throw new IllegalStateException("plans disagree: JNI " + viaJni.recoveries().size() + ", Java "
                    + viaJava.recoveries().size() + ", expected " + expected);
        }
    }

    @Benchmark
    public RecoveryPlan<State, Event> planJni() {
        return machine.planRecovery(candidates, jobClusterIds); // compat reads no job id
    }

    /** Diagnostic: the native call without marshalling or decoding (arrays prepared in setup). */
    @Benchmark
    public long[] planJniRaw() {
        return NativeBridge.planRecovery(NativeCodes.MODE_COMPAT, 0, 150_000, candidateRows, NO_LONGS, jobClusterIds,
                null, null);
    }

    /**
     * Baseline: the memory traffic of the native call's inputs alone, no planning: the candidates copied
     * whole and the job ids read front to back through a 16 KiB chunk, as jni/src/arrays.rs reads them.
     * Its growth per cluster from 1k to 100k is the machine's (caches, memory bandwidth).
     */
    @Benchmark
    public long inputsMemoryFloor() {
        System.arraycopy(candidateRows, 0, candidateCopy, 0, candidateRows.length);
        long acc = candidateCopy[candidateCopy.length - 1];
        for (int start = 0; start < jobClusterIds.length; start += jobChunk.length) {
            int n = Math.min(jobChunk.length, jobClusterIds.length - start);
            System.arraycopy(jobClusterIds, start, jobChunk, 0, n);
            for (int i = 0; i < n; i++) {
                acc ^= jobChunk[i];
            }
        }
        return acc;
    }

    /**
     * Baseline: the least work a plan must do, no more: the job ids read front to back, one bit set per job
     * at its cluster's id in a bitmap over the candidates' ids (the jobs come in database order, so the bits
     * are hit at random). From 1k to 100k clusters the bitmap grows from 1.4 KiB, within the L1 cache, to
     * 122 KiB, beyond it: what this costs more per cluster is the machine's memory hierarchy.
     */
    @Benchmark
    public long markingFloor() {
        long[] bits = markBits;
        java.util.Arrays.fill(bits, 0);
        long[] jobs = jobClusterIds;
        for (int i = 0; i < jobs.length; i++) {
            long id = jobs[i];
            int word = (int) (id >>> 6);
            if (word < bits.length) {
                bits[word] |= 1L << id;
            }
        }
        return bits[bits.length - 1];
    }

    /**
     * Diagnostic: planJni's marshalling alone, the candidates' objects (snapshot, row, token: about 80 bytes
     * each, 8 MB at 100k) walked into the primitive array the native call takes.
     */
    @Benchmark
    public long[] marshalCandidates() {
        return RecoveryColumns.candidates(candidates, stateBinding, false);
    }

    /**
     * Diagnostic: planJni without its checks and decoding, the marshalling and the native call on what it
     * marshalled: set beside planJniRaw and marshalCandidates, what the two cost together that each alone
     * does not (the fresh array and the jobs through the same caches).
     */
    @Benchmark
    public long[] marshalThenCall() {
        return NativeBridge.planRecovery(NativeCodes.MODE_COMPAT, 0, 150_000,
                RecoveryColumns.candidates(candidates, stateBinding, false), NO_LONGS, jobClusterIds, null, null);
    }

    @Benchmark
    public RecoveryPlan<State, Event> planJavaHashSet() {
        return javaPlanner.plan(candidates, jobClusterIds);
    }
}
