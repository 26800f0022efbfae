// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * A management server as {@code mshost} shows it; {@code heartbeatAgeSeconds} is computed by the
 * database ({@code TIMESTAMPDIFF(SECOND, last_update, NOW())}), never by a local clock.
 */
public record MsHost(long msid, long runid, Status status, long heartbeatAgeSeconds) {
    /** {@code mshost.state}: Up, Down (a peer saw it leave), anything else proves nothing. */
    public enum Status {
        UP(NativeCodes.HOST_UP), DOWN(NativeCodes.HOST_DOWN), OTHER(NativeCodes.HOST_OTHER);

        private final int code;

        Status(int code) {
            this.code = code;
        }

        /** The native code ({@code NativeCodes.HOST_*}). */
        int code() {
            return code;
        }
    }

    public MsHost {
        Arguments.required(status, "status");
    }

    /** The status of an {@code mshost.state} value. */
    public static Status status(String state) {
        if ("Up".equalsIgnoreCase(state)) {
            return Status.UP;
        }
        return "Down".equalsIgnoreCase(state) ? Status.DOWN : Status.OTHER;
    }
}
