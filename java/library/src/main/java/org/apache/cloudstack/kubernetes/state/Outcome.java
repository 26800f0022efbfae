// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/** How an operation ended; each crosses JNI as its {@code outcome} code. */
public enum Outcome {
    SUCCEEDED(NativeCodes.OUTCOME_SUCCEEDED),
    FAILED(NativeCodes.OUTCOME_FAILED),
    /** A create that failed: Starting -> Error by CreateFailed. */
    CREATE_FAILED(NativeCodes.OUTCOME_CREATE_FAILED);

    private final int code;

    Outcome(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
