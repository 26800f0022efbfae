// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.Map;
import java.util.TreeMap;

/**
 * The native calls a piece of work makes, by method, from the test-hooks build's counters
 * ({@link NativeTestHooks#callCounts()}): for the tests and benchmarks of other packages. Exact on
 * one thread only.
 */
public final class NativeCallCounts {
    /** Work that may throw. */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    private NativeCallCounts() {
    }

    /** The calls {@code work} made, by native method; methods it did not call are left out. */
    public static Map<String, Long> of(Work work) throws Exception {
        String[] names = NativeTestHooks.countedMethods();
        long[] before = NativeTestHooks.callCounts();
        work.run();
        long[] after = NativeTestHooks.callCounts();
        Map<String, Long> calls = new TreeMap<>();
        for (int i = 0; i < names.length; i++) {
            if (after[i] != before[i]) {
                calls.put(names[i], after[i] - before[i]);
            }
        }
        return calls;
    }
}
