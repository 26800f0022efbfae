// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/** The library's one null check: a null argument is the caller's error, named (never a NullPointerException). */
public final class Arguments {
    private Arguments() {
    }

    /** {@code value}, or an IllegalArgumentException "{@code name} is null". */
    public static <T> T required(T value, String name) {
        if (value == null) {
            throw new IllegalArgumentException(name + " is null");
        }
        return value;
    }
}
