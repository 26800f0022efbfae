// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/** What a scale request changes; each crosses JNI as its {@code scale_kind} code. */
public enum ScaleKind {
    SCALE_UP(NativeCodes.SCALE_KIND_SCALE_UP),
    SCALE_DOWN(NativeCodes.SCALE_KIND_SCALE_DOWN),
    /** Only the service offering changes: the one kind that may scale a Stopped cluster. */
    OFFERING_CHANGE(NativeCodes.SCALE_KIND_OFFERING_CHANGE),
    AUTOSCALE(NativeCodes.SCALE_KIND_AUTOSCALE);

    private final int code;

    ScaleKind(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
