// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every packed-result layout of jni/wire.tsv, packed by the glue's generated packer (the
 * one the bridge uses) and read back by the generated NativeCodes readers: each field comes back as
 * it went in, alone and beside every other at its largest.
 */
@NativeTestHooks.Needed
class LayoutRoundTripTest {
    @BeforeAll
    static void load() {
        NativeLibrary.load();
    }

    /** The spec's fields by layout, in file order: {name, shift, width}. */
    private static Map<String, List<String[]>> layouts() {
        Map<String, List<String[]>> out = new LinkedHashMap<>();
        for (String[] f : SpecTable.get().fields) {
            out.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new String[] {f[1], f[2], f[3]});
        }
        return out;
    }

    private static Method reader(String layout, String field) throws NoSuchMethodException {
        StringBuilder name = new StringBuilder(layout);
        for (String word : field.split("_")) {
            name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return NativeCodes.class.getDeclaredMethod(name.toString(), long.class);
    }

    private static long read(Method reader, long packed) throws ReflectiveOperationException {
        return ((Number) reader.invoke(null, packed)).longValue();
    }

    @Test
    void everyFieldComesBackAsItWentIn() throws ReflectiveOperationException {
        Map<String, List<String[]>> layouts = layouts();
        assertEquals(List.of("write", "token", "release"), List.copyOf(layouts.keySet()));
        Random random = new Random(20261203);
        int checked = 0;
        for (var layout : layouts.entrySet()) {
            List<String[]> fields = layout.getValue();
            int n = fields.size();
            long[] max = new long[n];
            Method[] readers = new Method[n];
            for (int i = 0; i < n; i++) {
                max[i] = (1L << Integer.parseInt(fields.get(i)[2])) - 1;
                readers[i] = reader(layout.getKey(), fields.get(i)[0]);
            }
            for (int round = 0; round < 200; round++) {
                long[] values = new long[n];
                for (int i = 0; i < n; i++) {
                    // Alone, all at their largest, then random values within each width.
                    values[i] = round == 0 ? (i == 0 ? max[0] : 0) : round == 1 ? max[i]
                            : random.nextLong() & max[i];
                }
                long packed = NativeTestHooks.pack(layout.getKey(), values);
                for (int i = 0; i < n; i++) {
                    assertEquals(values[i], read(readers[i], packed), layout.getKey() + "." + fields.get(i)[0]
                            + " of " + java.util.Arrays.toString(values));
                    checked++;
                }
            }
        }
        assertFalse(checked == 0);
    }

    @Test
    void aValueWiderThanItsFieldIsRefused() {
        List<String[]> write = layouts().get("write");
        long[] values = new long[write.size()];
        values[0] = 1L << Integer.parseInt(write.get(0)[2]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NativeTestHooks.pack("write", values));
        assertEquals(true, e.getMessage().contains("values[0]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NativeTestHooks.pack(null, values), "layout");
        assertThrows(IllegalArgumentException.class, () -> NativeTestHooks.pack("write", null), "values");
        assertThrows(IllegalArgumentException.class, () -> NativeTestHooks.pack("write", new long[2]), "length");
        assertThrows(IllegalArgumentException.class, () -> NativeTestHooks.pack("nonesuch", values), "unknown");
    }

    @Test
    void theLargestVersionIsTheVersionFieldsLargest() {
        var machine = ClusterStateMachine.bind(State.class, Event.class, Profile.CLOUDSTACK_4_22,
                StateMode.FENCED);
        String[] version = layouts().get("write").stream().filter(f -> f[0].equals("version")).findFirst()
                .orElseThrow();
        assertEquals((1L << Integer.parseInt(version[2])) - 1, machine.maxVersion());
    }
}
