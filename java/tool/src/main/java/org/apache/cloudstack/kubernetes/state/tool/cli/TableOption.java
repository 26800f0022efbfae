// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.Profile;
import org.apache.cloudstack.kubernetes.state.ReleaseTable;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackRelease;
import org.apache.cloudstack.kubernetes.state.tool.text.Json;
import org.apache.cloudstack.kubernetes.state.tool.text.Terminal;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The transition table the deployment's management servers run: the one of the CloudStack release
 * the database says it is (its {@code version} table, read as CloudStack reads it), or one asked for.
 */
final class TableOption {
    static final String AUTO = "auto";
    /** The profiles a command line may name, for messages and --help. */
    static final String LABELS = Arrays.stream(Profile.values()).map(Profile::label).collect(Collectors.joining(", "));

    @Option(names = "--profile", defaultValue = AUTO, paramLabel = "auto|PROFILE",
            description = "the transition table: auto (the one of the CloudStack release in the database's version"
                    + " table; without a database the newest) or one of " + "${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE})",
            completionCandidates = Labels.class, converter = Checked.class)
    String profile;

    /** The table used, and how it was chosen (one line of the report, and its JSON key {@code table}). */
    record Resolved(Profile profile, String how) {
        String line() {
            return "table: " + profile.label() + " (" + how + ")";
        }

        /** {@code "table": ..., "table_chosen": ...}, beside {@code mode} and {@code mode_chosen}. */
        String json() {
            return "\"table\": " + Json.quote(profile.label()) + ", \"table_chosen\": " + Json.quote(how);
        }

        /** The commands whose jobs hold a cluster: the table's release line's (the tool has no plugin to ask). */
        ClusterCommandSet commands() {
            return ClusterCommandSet.ofReleaseLine(profile);
        }

        /** Which {@link #commands()} the job lookup used: one line of the report. */
        String commandsLine() {
            return "job commands: " + commands().source();
        }

        /** {@code "job_commands": ...}, beside {@code table}. */
        String commandsJson() {
            return "\"job_commands\": " + Json.quote(commands().source());
        }
    }

    /** The profile the command line names, or null for auto. */
    private Profile asked() {
        return AUTO.equals(profile) ? null : Profile.fromLabel(profile);
    }

    /** Without a database: the table asked for, or the newest release's. */
    Resolved resolve() {
        Profile p = asked();
        return p != null ? new Resolved(p, "asked for")
                : new Resolved(Profile.newestRelease(), "the newest release's; give a database to use its release's");
    }

    /**
     * For table and rules: the table of the database the command line names (read-only), said in one
     * line on standard error (standard output is the table itself), else {@link #resolve()}.
     */
    Resolved resolve(CommandSpec spec, DatabaseOptions database) {
        if (!database.given()) {
            return resolve();
        }
        OperatorDatabase db = database.database(spec, false);
        PrintWriter err = spec.commandLine().getErr();
        try (Connection c = db.connect(err)) {
            Resolved resolved = resolve(c, false);
            err.println("cks-state " + spec.name() + ": using the " + resolved.line().replaceFirst(": ", " "));
            err.flush();
            return resolved;
        } catch (SQLException e) {
            throw new ToolFailure("reading the CloudStack release of " + db.describe() + ": " + DatabaseErrors.reason(e));
        }
    }

    /**
     * The table of the database's CloudStack release. A release the tool has no table for (older or
     * newer than every one it has, or none recorded) gets the nearest for reading, and refuses
     * {@code --apply} unless --profile names one: the nearest table may write what that release's
     * servers would not.
     */
    Resolved resolve(Connection c, boolean apply) throws SQLException {
        Profile p = asked();
        if (p != null) {
            return new Resolved(p, "asked for");
        }
        Optional<String> version = CloudStackRelease.current(c);
        if (version.isEmpty()) {
            refuseApply(apply, "the database records no CloudStack release (no Complete row in its version table)");
            return new Resolved(Profile.newestRelease(), "the database records no CloudStack release: the newest table");
        }
        ReleaseTable table;
        try {
            table = ReleaseTable.of(version.get());
        } catch (IllegalArgumentException e) {
            String shown = Terminal.field(version.get()); // the database's text: no escape reaches the terminal
            refuseApply(apply, "the database's CloudStack release '" + shown + "' is not a version the tool reads");
            return new Resolved(Profile.newestRelease(), "the database's release '" + shown
                    + "' is not a version the tool reads: the newest table");
        }
        if (!table.known()) {
            refuseApply(apply, "the tool has no table of CloudStack " + table.release());
        }
        return new Resolved(table.profile(), table.describe() + ", from the version table");
    }

    private static void refuseApply(boolean apply, String why) {
        if (apply) {
            throw new ToolFailure("--apply refused, nothing changed: " + why + "; name the table the management"
                    + " servers run with --profile (" + LABELS + ")");
        }
    }

    /** --profile's value: auto or a profile's name; another is a usage error naming the choices. */
    static final class Checked implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!AUTO.equals(value) && Arrays.stream(Profile.values()).noneMatch(p -> p.label().equals(value))) {
                throw new CommandLine.TypeConversionException("unknown table '" + value + "' (expected auto, " + LABELS + ")");
            }
            return value;
        }
    }

    /** --help's candidates: the profiles' names. */
    static final class Labels implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Arrays.stream(Profile.values()).map(Profile::label).iterator();
        }
    }
}
