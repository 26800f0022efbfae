// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.dbprops;

/** A db.properties the tool cannot use; the message is one line for the operator and holds no secret. */
public final class DbSettingsException extends Exception {
    private static final long serialVersionUID = 1L;

    public DbSettingsException(String message) {
        super(message);
    }
}
