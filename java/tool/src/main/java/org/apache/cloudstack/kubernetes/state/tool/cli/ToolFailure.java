// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

/**
 * A failure the operator reads as one line: what the tool was doing, and why it could not (exit
 * status 1). Whoever makes one masks what a driver said in it ({@link DatabaseErrors#reason}).
 */
final class ToolFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ToolFailure(String message) {
        super(message);
    }
}
