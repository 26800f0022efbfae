// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.FencedMigration;
import org.apache.cloudstack.kubernetes.state.tool.settings.CloudStackConfiguration;
import org.apache.cloudstack.kubernetes.state.sql.DatabaseClock;
import org.apache.cloudstack.kubernetes.state.tool.text.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cks-state schema}: which mode a CloudStack schema runs, and the fenced migration up or down. */
@Command(name = "schema", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Show the mode of a CloudStack database's schema: compat (no fence columns), fenced (all four,"
                + " " + CloudStackSchema.FENCE_COLUMN_NAMES + ", and the rolling-upgrade trigger) or partial (a"
                + " migration cut short). --migrate fenced|compat prints the SQL the migration would run; with --apply"
                + " it runs it, all or nothing: the trigger's privileges are tried first, and a migration cut short"
                + " earlier is completed (fenced) or undone (compat)."})
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

    @Option(names = "--definer", paramLabel = "ACCOUNT",
            description = "with --migrate fenced: the database account the trigger runs as, CloudStack's own (db.cloud.username"
                    + " of its db.properties, e.g. 'cloud'@'%%'), so that dropping the account running the migration never"
                    + " breaks CloudStack's writes (default with --db-properties: the file's account; with --jdbc-url it must"
                    + " be named to --apply)")
    String definer;

    @Option(names = "--even-if-configured-fenced",
            description = "with --migrate compat --apply: drop the fence although " + StateMode.CONFIG_KEY + " is 'fenced'"
                    + " (fenced servers then refuse to start until it is set to compat)")
    boolean evenIfConfiguredFenced;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        if (apply && migrate == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--apply goes with --migrate");
        }
        if (definer != null && migrate != Migration.fenced) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--definer goes with --migrate fenced");
        }
        OperatorDatabase db = database.database(spec, apply);
        PrintWriter out = spec.commandLine().getOut();
        try (Connection c = db.connect(spec.commandLine().getErr())) {
            CloudStackSchema.requireScannerSchema(c);
            TableOption.Resolved table = tableOption.resolve(c, apply);
            List<String> statements = List.of();
            String account = null;
            if (migrate == Migration.fenced) {
                account = definer(c);
                statements = FencedMigration.up(c, account);
            } else if (migrate == Migration.compat) {
                statements = FencedMigration.down(c);
                refuseWhileConfiguredFenced(c);
            }
            if (apply && migrate == Migration.fenced) {
                FencedMigration.migrateUp(c, account);
            } else if (apply && migrate == Migration.compat) {
                FencedMigration.migrateDown(c);
            }
            String mode = mode(FencedMigration.stage(c));
            boolean trigger = CloudStackSchema.hasVersionTrigger(c);
            String partial = mode.equals("partial") ? FencedMigration.describe(c) : null;
            out.print(format == Format.json ? json(table, mode, trigger, account, statements)
                    : text(table, mode, partial, trigger, account, statements));
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (IllegalStateException e) {
            throw new ToolFailure(e.getMessage());
        } catch (SQLException e) {
            throw new ToolFailure((apply ? "migrating " : "reading the schema of ") + db.describe() + ": "
                    + DatabaseErrors.reason(e));
        }
        out.flush();
        return 0;
    }

    private static String mode(FencedMigration.Stage stage) {
        return stage.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The trigger's definer (MariaDB and MySQL; H2 has none): --definer, else the account the tool
     * connects as when that is CloudStack's (db.properties); with --jdbc-url, --apply needs it named.
     */
    private String definer(Connection c) throws SQLException {
        if (DatabaseClock.isH2(c)) {
            return null;
        }
        if (definer != null) {
            return FencedMigration.account(definer);
        }
        if (database.asCloudStack()) {
            return FencedMigration.currentAccount(c);
        }
        if (apply) {
            throw new ToolFailure("--migrate fenced --apply with --jdbc-url: name CloudStack's own database account, the"
                    + " trigger's definer, with --definer (db.cloud.username of its db.properties, e.g. 'cloud'@'%'), or"
                    + " run with --db-properties; nothing changed");
        }
        return FencedMigration.currentAccount(c);
    }

    /** The fence stays while the deployment's servers are configured fenced: they would not start without it. */
    private void refuseWhileConfiguredFenced(Connection c) throws SQLException {
        String configured = CloudStackConfiguration.values(c, List.of(StateMode.CONFIG_KEY)).get(StateMode.CONFIG_KEY);
        if (apply && !evenIfConfiguredFenced && configured != null && "fenced".equalsIgnoreCase(configured.strip())) {
            throw new ToolFailure("--migrate compat --apply refused, nothing changed: " + StateMode.CONFIG_KEY + " is 'fenced',"
                    + " and fenced servers do not start without the fence; set it to compat and restart every server first,"
                    + " or add --even-if-configured-fenced");
        }
    }

    private String text(TableOption.Resolved table, String mode, String partial, boolean trigger, String account,
            List<String> statements) {
        StringBuilder out = new StringBuilder();
        if (migrate != null) {
            out.append(apply ? "ran:\n" : "would run (dry run; --apply to perform):\n");
            if (statements.isEmpty()) {
                out.append("  nothing: the schema is already ").append(migrate.name()).append('\n');
            }
            for (String sql : statements) {
                out.append("  ").append(sql.replace("\n", "\n  ")).append(";\n");
            }
            if (account != null) {
                out.append("definer: ").append(account).append('\n');
            }
        }
        out.append("mode: ").append(mode).append(switch (mode) {
            case "compat" -> " (kubernetes_cluster has none of the fence columns)";
            case "fenced" -> " (kubernetes_cluster has the fence columns " + String.join(", ", CloudStackSchema.FENCE_COLUMNS)
                    + " and their trigger)";
            default -> " (kubernetes_cluster has " + partial + ": a migration was cut short; finish it with --migrate"
                    + " fenced --apply, or undo it with --migrate compat --apply)";
        }).append('\n');
        out.append("trigger: ").append(CloudStackSchema.VERSION_TRIGGER).append(trigger ? " in place" : " absent").append('\n');
        out.append(table.line()).append('\n');
        return out.toString();
    }

    private String json(TableOption.Resolved table, String mode, boolean trigger, String account, List<String> statements) {
        StringBuilder out = new StringBuilder("{\"mode\": ").append(Json.quote(mode)).append(", \"trigger\": ").append(trigger)
                .append(", ").append(table.json());
        if (account != null) {
            out.append(", \"definer\": ").append(Json.quote(account));
        }
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
