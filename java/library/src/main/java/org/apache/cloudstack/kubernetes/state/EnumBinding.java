// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.lang.reflect.Array;
import java.util.HashMap;
import java.util.Map;

/**
 * One host enum class bound to the library's codes by constant name: ordinal -> code and
 * code -> constant (null where the host lacks the library's name). Immutable after construction.
 */
final class EnumBinding<T extends Enum<T>> {
    private final Class<T> type;
    /** The bound class's constants by ordinal: the hot check is identity against these. */
    private final T[] constantByOrdinal;
    private final int[] codeByOrdinal;
    private final T[] constantByCode;
    private final String[] libraryNames;

    private EnumBinding(Class<T> type, T[] constantByOrdinal, int[] codeByOrdinal, T[] constantByCode,
            String[] libraryNames) {
        this.type = type;
        this.constantByOrdinal = constantByOrdinal;
        this.codeByOrdinal = codeByOrdinal;
        this.constantByCode = constantByCode;
        this.libraryNames = libraryNames;
    }

    /** Binds {@code type} to {@code libraryNames} (index = code); {@code what} names it in errors. */
    static <T extends Enum<T>> EnumBinding<T> of(Class<T> type, String[] libraryNames, String what) {
        if (type == null) {
            throw new IllegalArgumentException(what + " class is null");
        }
        if (!type.isEnum()) {
            throw new IllegalArgumentException(what + " class " + type.getName() + " is not an enum");
        }
        Map<String, Integer> codeByName = new HashMap<>();
        for (int code = 0; code < libraryNames.length; code++) {
            codeByName.put(libraryNames[code], code);
        }
        T[] constants = type.getEnumConstants();
        int[] codes = new int[constants.length];
        @SuppressWarnings("unchecked")
        T[] byCode = (T[]) Array.newInstance(type, libraryNames.length);
        for (T constant : constants) {
            Integer code = codeByName.get(constant.name());
            if (code == null) {
                throw new IllegalArgumentException(what + " constant " + constant.name() + " of "
                        + type.getName() + " is not known to cks-state (known: "
                        + String.join(", ", libraryNames) + ")");
            }
            codes[constant.ordinal()] = code;
            byCode[code] = constant;
        }
        return new EnumBinding<>(type, constants, codes, byCode, libraryNames.clone());
    }

    Class<T> type() {
        return type;
    }

    /** The code of a host constant; IAE naming {@code argument} if it is null or foreign. Hot: no allocation. */
    int code(T value, String argument) {
        int ordinal = ordinalOrNone(value);
        if (ordinal < 0) {
            throw foreign(value, argument);
        }
        return codeByOrdinal[ordinal];
    }

    /** Like {@link #code}, but -1 instead of throwing (loops build their message only on failure). */
    int codeOrNone(T value) {
        int ordinal = ordinalOrNone(value);
        return ordinal < 0 ? -1 : codeByOrdinal[ordinal];
    }

    /**
     * The ordinal of a constant of the bound class, or -1 for null or a constant of another enum.
     * A constant of the bound class is the one at its ordinal in getEnumConstants(); anything
     * else is foreign. One array load, where getDeclaringClass() walks klass, superclass and
     * their mirrors (a chain of dependent loads) on every hot call.
     */
    private int ordinalOrNone(T value) {
        if (value == null) {
            return -1;
        }
        int ordinal = value.ordinal();
        return ordinal < constantByOrdinal.length && constantByOrdinal[ordinal] == value ? ordinal : -1;
    }

    IllegalArgumentException foreign(Object value, String argument) {
        if (value == null) {
            return new IllegalArgumentException(argument + " is null");
        }
        return new IllegalArgumentException(argument + " " + value + " is a constant of "
                + ((Enum<?>) value).getDeclaringClass().getName() + ", not of the bound " + type.getName());
    }

    /** The host constant of a library code, or null when the host lacks that name. Hot. */
    T constant(int code) {
        if (code < 0 || code >= constantByCode.length) {
            return null;
        }
        return constantByCode[code];
    }

    /** The library's name of a code (also for names the host lacks); cold. */
    String libraryName(int code) {
        return code >= 0 && code < libraryNames.length ? libraryNames[code] : "#" + code;
    }

    int codeCount() {
        return constantByCode.length;
    }

    /** The host constant stored under {@code name} (a database column); IAE if there is none. */
    T named(String name) {
        if (name == null) {
            throw new IllegalArgumentException("name is null");
        }
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("name '" + name + "' is not a constant of " + type.getName(), e);
        }
    }
}
