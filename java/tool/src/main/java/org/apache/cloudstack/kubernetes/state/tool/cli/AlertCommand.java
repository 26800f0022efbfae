// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.tool.alert.ManagementServerAlert;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cks-state alert}: a management-server alert in CloudStack's alert list. The package's start check
 * raises one when it starts a server without cks-state (an overlay built for another release).
 */
@Command(name = "alert", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Raise a management-server alert (ALERT.MANAGEMENT) in CloudStack's alert list, as CloudStack"
                + " records its own: shown by listAlerts and the UI's Alerts, e-mailed by nobody. Once: while an alert with"
                + " the same subject is not archived, it is left as it is. Dry run unless --apply (read only)."})
final class AlertCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOptions database;

    @Option(names = "--subject", required = true, description = "the alert's subject (1 to "
            + ManagementServerAlert.SUBJECT_LIMIT + " characters, one line)")
    String subject;

    @Option(names = "--content", defaultValue = "", description = "the alert's text (up to "
            + ManagementServerAlert.CONTENT_LIMIT + " characters)")
    String content;

    @Option(names = "--apply", description = "record the alert (default: dry run, read only)")
    boolean apply;

    @Override
    public Integer call() {
        check("--subject", subject, 1, ManagementServerAlert.SUBJECT_LIMIT, false);
        check("--content", content, 0, ManagementServerAlert.CONTENT_LIMIT, true);
        OperatorDatabase db = database.database(spec, apply);
        PrintWriter out = spec.commandLine().getOut();
        try (Connection c = db.connect(spec.commandLine().getErr())) {
            OptionalLong existing = ManagementServerAlert.unarchived(c, subject);
            if (existing.isPresent()) {
                out.println("alert " + existing.getAsLong() + " has this subject and is not archived: left as it is");
            } else if (!apply) {
                out.println("would raise a management-server alert (dry run; --apply records it)");
            } else {
                out.println("raised management-server alert " + ManagementServerAlert.raise(c, subject, content));
            }
        } catch (SQLException e) {
            throw new ToolFailure((apply ? "raising an alert in " : "reading the alerts of ") + db.describe() + ": "
                    + DatabaseErrors.reason(e));
        }
        out.flush();
        return 0;
    }

    private void check(String option, String value, int min, int max, boolean lines) {
        if (value.length() < min || value.length() > max) {
            throw new ParameterException(spec.commandLine(), option + " takes " + min + " to " + max + " characters (the"
                    + " alert table's column), not " + value.length());
        }
        if (value.codePoints().anyMatch(ch -> Character.isISOControl(ch) && !(lines && (ch == '\n' || ch == '\t')))) {
            throw new ParameterException(spec.commandLine(), option + " has a control character"
                    + (lines ? " other than a line break or a tab" : ": give one line"));
        }
    }
}
