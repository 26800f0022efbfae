// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/** The one null check of the public API: an {@link IllegalArgumentException} naming the argument. */
final class Arguments {
    private Arguments() {
    }

    static <T> T require(T value, String argument) {
        if (value == null) {
            throw new IllegalArgumentException(argument + " is null");
        }
        return value;
    }
}
