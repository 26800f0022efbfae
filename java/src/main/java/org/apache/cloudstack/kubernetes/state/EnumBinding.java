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
    private final int[] codeByOrdinal;
    private final T[] constantByCode;
    private final String[] libraryNames;

    private EnumBinding(Class<T> type, int[] codeByOrdinal, T[] constantByCode, String[] libraryNames) {
        this.type = type;
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
        return new EnumBinding<>(type, codes, byCode, libraryNames.clone());
    }

    Class<T> type() {
        return type;
    }

    /** The code of a host constant; IAE naming {@code argument} if it is null or foreign. Hot: no allocation. */
    int code(T value, String argument) {
        if (value == null || value.getDeclaringClass() != type) {
            throw foreign(value, argument);
        }
        return codeByOrdinal[value.ordinal()];
    }

    /** Like {@link #code}, but -1 instead of throwing (loops build their message only on failure). */
    int codeOrNone(T value) {
        if (value == null || value.getDeclaringClass() != type) {
            return -1;
        }
        return codeByOrdinal[value.ordinal()];
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
}
