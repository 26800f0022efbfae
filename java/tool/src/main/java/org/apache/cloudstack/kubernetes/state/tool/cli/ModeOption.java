// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.sql.Connection;
import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration;
import picocli.CommandLine.Option;

/** The mode the deployment's management servers run the scanner in: the schema's, or one asked for. */
final class ModeOption {
    /** The values of --mode. */
    enum Choice { auto, compat, fenced }

    @Option(names = "--mode", defaultValue = "auto", paramLabel = "auto|compat|fenced",
            description = "the management servers' mode: auto (the schema's: fenced when kubernetes_cluster has the"
                    + " fence columns and their trigger, compat when it has neither), compat or fenced (default: ${DEFAULT-VALUE})")
    Choice mode;

    /** The mode used, and how it was chosen (for the report). */
    record Resolved(StateMode mode, String how) {
        String label() {
            return mode.label();
        }
    }

    /** Checks the schema (metadata only) and chooses the mode; one clear line when it cannot run. */
    Resolved resolve(Connection c) throws SQLException {
        try {
            CloudStackSchema.requireScannerSchema(c);
        } catch (IllegalStateException e) {
            throw new ToolFailure(e.getMessage());
        }
        CloudStackSchema.FenceColumns columns = CloudStackSchema.fenceColumns(c);
        String asked = mode.name();
        if (mode == Choice.auto) {
            return switch (FencedMigration.stage(c)) {
                case FENCED -> new Resolved(StateMode.FENCED, "auto: the schema has the fence columns");
                case COMPAT -> new Resolved(StateMode.COMPAT, "auto: the schema has no fence columns");
                case PARTIAL -> throw new ToolFailure("--mode auto: " + partialMessage(c));
            };
        }
        StateMode requested = mode == Choice.fenced ? StateMode.FENCED : StateMode.COMPAT;
        try {
            CloudStackSchema.requireMode(c, requested);
        } catch (IllegalStateException e) {
            throw new ToolFailure("--mode " + asked + ": " + e.getMessage());
        }
        return new Resolved(requested, columns == CloudStackSchema.FenceColumns.ALL && requested == StateMode.COMPAT
                ? "asked for, on a schema with the fence columns: fenced servers' holds are not honoured"
                : "asked for");
    }

    private static String partialMessage(Connection c) throws SQLException {
        try {
            CloudStackSchema.requireMode(c, StateMode.FENCED);
            return "the schema changed while it was read";
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }
}
