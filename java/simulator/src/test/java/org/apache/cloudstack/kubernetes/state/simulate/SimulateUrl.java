// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import org.apache.cloudstack.kubernetes.state.tool.cli.ToolDatabase;

/** Where simulate runs in the tests: scripts/mariadb.sh's own database for simulate runs, beside the tool's. */
final class SimulateUrl {
    private SimulateUrl() {
    }

    /** The URL simulate is given on this database; null on H2 (simulate's embedded default). */
    static String of(ToolDatabase db) {
        return db == ToolDatabase.H2 ? null : db.url().replaceFirst("/cloud\\?", "/cks_sim?");
    }
}
