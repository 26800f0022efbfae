// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * The codes that cross JNI are one contract, read from jni/wire.tsv independently of the
 * build: each Java enum carries the code of its own name (never its ordinal), the native core takes
 * exactly those codes and refuses the next one, the log levels map both ways, and the loaded
 * library's ABI version is the table's.
 */
class CodeContractTest {
    private final Map<String, Integer> spec = SpecTable.get().codes;

    private <T extends Enum<T>> void sameCodes(String family, Class<T> type, ToIntFunction<T> code, IntConsumer inNative) {
        Map<String, Integer> expected = new TreeMap<>();
        spec.forEach((k, v) -> {
            if (k.startsWith(family + ".")) {
                expected.put(k.substring(family.length() + 1), v);
            }
        });
        Map<String, Integer> java = new TreeMap<>();
        for (T constant : type.getEnumConstants()) {
            java.put(constant.name(), code.applyAsInt(constant));
            assertDoesNotThrow(() -> inNative.accept(code.applyAsInt(constant)), family + " " + constant);
        }
        assertEquals(expected, java, family + ": the Java enum and the table");
        int past = expected.values().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
        assertThrows(IllegalArgumentException.class, () -> inNative.accept(past), family + " " + past);
        assertThrows(IllegalArgumentException.class, () -> inNative.accept(-2), family + " -2");
    }

    @Test
    void decisionInputsCrossAsTheTablesCodes() {
        NativeLibrary.load();
        int compat = StateMode.COMPAT.code();
        int running = SpecTable.get().states.entrySet().stream().filter(e -> e.getValue().equals("Running"))
                .mapToInt(Map.Entry::getKey).findFirst().orElseThrow();
        sameCodes("profile", Profile.class, Profile::code, p -> NativeBridge.nextState(p, running, 0));
        sameCodes("outcome", Outcome.class, Outcome::code,
                o -> NativeBridge.completion(compat, 0, running, -1, running, o));
        sameCodes("scale_kind", ScaleKind.class, ScaleKind::code,
                k -> NativeBridge.scaleMessage(k, running, NativeBridge.NONE));
        sameCodes("vm_summary", VmSummary.class, VmSummary::code,
                v -> NativeBridge.reconcile(compat, 0, running, -1, false, v));
    }

    @Test
    void theAbiVersionIsTheTables() {
        NativeLibrary.load();
        assertEquals(spec.get("abi.VERSION"), NativeLibrary.abiVersion());
        assertEquals(spec.get("abi.VERSION"), NativeLibrary.expectedAbiVersion());
    }
}
