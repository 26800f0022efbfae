// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/**
 * A panic or an internal error inside the native library, or a library that could not be loaded.
 * The native side throws it by class name with the (String) constructor: keep that constructor.
 */
public class CksStateNativeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CksStateNativeException(String message) {
        super(message);
    }

    public CksStateNativeException(String message, Throwable cause) {
        super(message, cause);
    }
}
