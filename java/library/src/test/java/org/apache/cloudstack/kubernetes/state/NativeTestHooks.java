// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.junit.jupiter.api.Tag;

/**
 * Native methods that exist only in the library built with the cargo feature {@code test-hooks}
 * (scripts/native.sh builds it beside the jar's; the jar never carries it). The tests tagged
 * {@value #TAG} run in their own surefire execution with {@code -Dcks.state.library.path} on that
 * build; the benchmarks load it too.
 */
final class NativeTestHooks {
    static final String TAG = "test-hooks";

    /** Marks a test class that needs these methods. */
    @Tag(TAG)
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE)
    @interface Needed {
    }

    private NativeTestHooks() {
    }

    /** The cheapest possible JNI round trip: the benchmark floor. Returns x + 1. */
    static native int noop(int x);

    /** Panics inside native code with this message (formatted with format!). */
    static native void forcePanic(String message);

    /** Packs one value per field, in file order, with the core's generated packer of {@code layout}. */
    static native long pack(String layout, long[] values);

    /** Allocates {@code count} longs natively as the bridge allocates an array argument; returns the count. */
    static native long allocate(long count);
}
