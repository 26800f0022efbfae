// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.Arrays;

/** Latencies of the compare-and-set calls, for percentiles. */
final class LatencyRecorder {
    private long[] samples = new long[1024];
    private int size;

    synchronized void add(long nanos) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = nanos;
    }

    synchronized int count() {
        return size;
    }

    /** The p-th percentile (0..100) in microseconds, 0 without samples. */
    synchronized double percentileMicros(double p) {
        if (size == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(samples, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * size) - 1;
        return sorted[Math.max(0, Math.min(size - 1, rank))] / 1000.0;
    }
}
