// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every native method of NativeBridge is bound: invoked once with valid arguments, no UnsatisfiedLinkError. */
class NativeMethodsBoundTest {
    /** Valid arguments per native method; a new native method without an entry fails the test. */
    private static final Map<String, Object[]> ARGS = Map.ofEntries(
            Map.entry("abiVersion", new Object[] {}),
            Map.entry("names", new Object[] {NativeCodes.NAMES_STATES}),
            Map.entry("transitions", new Object[] {0}),
            Map.entry("orphanStates", new Object[] {}),
            Map.entry("profileForRelease", new Object[] {4, 20, 2, 0}),
            Map.entry("nextState", new Object[] {0, 0, 0}),
            Map.entry("upstreamWrite", new Object[] {0, 2, 1}),
            Map.entry("decideEntry", new Object[] {0, 0, 0}),
            Map.entry("refusalReason", new Object[] {1, 5}),
            Map.entry("scaleMessage", new Object[] {0, 4, 1}),
            Map.entry("constants", new Object[] {}),
            Map.entry("entry", new Object[] {NativeCodes.MODE_FENCED, 0, 5, 2, 4L, false}),
            Map.entry("completion", new Object[] {NativeCodes.MODE_FENCED, 0, 7, 5L, 7, 0}),
            Map.entry("scaleStep", new Object[] {NativeCodes.MODE_COMPAT, 0, 0, 2, -1L, -1, 0L, -1, 2, -1L, false}),
            Map.entry("writeShapeError", new Object[] {NativeCodes.MODE_FENCED, 0, 2, 4L, 1, 3, 5L, true}),
            Map.entry("reconcile", new Object[] {NativeCodes.MODE_COMPAT, 0, 10, -1L, false, 0}),
            Map.entry("vmSummary", new Object[] {10, 3L, 3L, 3L, 3L, 0L, NativeCodes.HEALTH_UNPROBED}),
            Map.entry("planRecovery", new Object[] {NativeCodes.MODE_FENCED, 0, 150_000L,
                new long[] {1, 5, 0, -1, -1, -1}, new long[0], new long[0], null, null}));

    @Test
    void everyNativeMethodIsBound() throws IllegalAccessException {
        NativeLibrary.load();
        List<String> invoked = new ArrayList<>();
        for (Method method : NativeBridge.class.getDeclaredMethods()) {
            if (!Modifier.isNative(method.getModifiers())) {
                continue;
            }
            Object[] args = ARGS.get(method.getName());
            if (args == null) {
                fail("no test arguments for native method " + method);
            }
            method.setAccessible(true);
            try {
                method.invoke(null, args);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                fail(method.getName() + (cause instanceof UnsatisfiedLinkError ? " is not bound: " : " threw ") + cause);
            }
            invoked.add(method.getName());
        }
        assertFalse(invoked.isEmpty());
        assertEquals(ARGS.keySet().stream().sorted().toList(), invoked.stream().sorted().toList());
    }
}
