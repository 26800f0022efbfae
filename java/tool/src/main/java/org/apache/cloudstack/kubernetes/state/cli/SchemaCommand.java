// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.text.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cks-state schema}: which mode a CloudStack schema runs, and the fenced migration up or down. */
@Command(name = "schema", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Show the mode of a CloudStack database's schema: compat (no fence columns), fenced (all four,"
                + " " + CloudStackSchema.FENCE_COLUMN_NAMES + ") or partial (a migration cut short), and"
                + " whether the rolling-upgrade trigger is in place. --migrate fenced|compat prints the SQL the"
                + " migration would run; with --apply it runs it."})
final class SchemaCommand implements Callable<Integer> {
    /** Output formats. */
    enum Format { text, json }

    /** The migrations: up to fenced, down to compat. */
    enum Migration { fenced, compat }

    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOptions database;

    @Mixin
    TableOption tableOption;

    @Option(names = "--migrate", paramLabel = "fenced|compat",
            description = "the migration to print (dry run) or, with --apply, to run: fenced adds the four columns and"
                    + " the trigger, compat drops them (every row and its state stay)")
    Migration migrate;

    @Option(names = "--apply", description = "with --migrate: run the migration (default: print it, change nothing)")
    boolean apply;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        if (apply && migrate == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--apply goes with --migrate");
        }
        OperatorDatabase db = database.database(spec, apply);
        PrintWriter out = spec.commandLine().getOut();
        try (Connection c = db.connect(spec.commandLine().getErr())) {
            CloudStackSchema.requireScannerSchema(c);
            TableOption.Resolved table = tableOption.resolve(c, apply);
            List<String> statements = List.of();
            if (migrate != null) {
                statements = migrate == Migration.fenced ? CloudStackSchema.migrationUp(c) : CloudStackSchema.migrationDown(c);
                if (apply) {
                    if (migrate == Migration.fenced) {
                        CloudStackSchema.migrateUp(c);
                    } else {
                        CloudStackSchema.migrateDown(c);
                    }
                }
            }
            String mode = mode(CloudStackSchema.fenceColumns(c));
            boolean trigger = CloudStackSchema.hasVersionTrigger(c);
            out.print(format == Format.json ? json(table, mode, trigger, statements) : text(table, mode, trigger, statements));
        } catch (IllegalStateException e) {
            throw new ToolFailure(e.getMessage());
        } catch (SQLException e) {
            throw new ToolFailure((apply ? "migrating " : "reading the schema of ") + db.describe() + ": "
                    + DatabaseErrors.reason(e));
        }
        out.flush();
        return 0;
    }

    private static String mode(CloudStackSchema.FenceColumns columns) {
        return switch (columns) {
            case NONE -> "compat";
            case ALL -> "fenced";
            case PARTIAL -> "partial";
        };
    }

    private String text(TableOption.Resolved table, String mode, boolean trigger, List<String> statements) {
        StringBuilder out = new StringBuilder();
        if (migrate != null) {
            out.append(apply ? "ran:\n" : "would run (dry run; --apply to perform):\n");
            if (statements.isEmpty()) {
                out.append("  nothing: the schema is already ").append(migrate.name()).append('\n');
            }
            for (String sql : statements) {
                out.append("  ").append(sql.replace("\n", "\n  ")).append(";\n");
            }
        }
        out.append("mode: ").append(mode).append(switch (mode) {
            case "compat" -> " (kubernetes_cluster has none of the fence columns)";
            case "fenced" -> " (kubernetes_cluster has the fence columns " + String.join(", ", CloudStackSchema.FENCE_COLUMNS)
                    + ")";
            default -> " (some of the fence columns: a migration was cut short; finish it with --migrate fenced"
                    + " --apply, or undo it with --migrate compat --apply)";
        }).append('\n');
        out.append("trigger: ").append(CloudStackSchema.VERSION_TRIGGER).append(trigger ? " in place" : " absent")
                .append(trigger || !mode.equals("fenced") ? "" : " (older servers' blind writes are not versioned:"
                        + " run --migrate fenced --apply again)").append('\n');
        out.append(table.line()).append('\n');
        return out.toString();
    }

    private String json(TableOption.Resolved table, String mode, boolean trigger, List<String> statements) {
        StringBuilder out = new StringBuilder("{\"mode\": ").append(Json.quote(mode)).append(", \"trigger\": ").append(trigger)
                .append(", ").append(table.json());
        if (migrate != null) {
            out.append(", \"migration\": ").append(Json.quote(migrate.name().toLowerCase(Locale.ROOT)))
                    .append(", \"applied\": ").append(apply).append(", \"statements\": [");
            String sep = "";
            for (String sql : statements) {
                out.append(sep).append(Json.quote(sql));
                sep = ", ";
            }
            out.append(']');
        }
        return out.append("}\n").toString();
    }
}
