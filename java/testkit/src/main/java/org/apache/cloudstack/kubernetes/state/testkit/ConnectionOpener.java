// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens the connections the kit writes on; a library {@code ConnectionSource} fits as {@code source::open}. */
@FunctionalInterface
public interface ConnectionOpener {
    /** A connection the caller closes. */
    Connection open() throws SQLException;
}
