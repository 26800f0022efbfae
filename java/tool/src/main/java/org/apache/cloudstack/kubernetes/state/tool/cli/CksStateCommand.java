// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code cks-state} tool an operator runs (table, rules, scan, explain, schema, alert). Add a subcommand by
 * adding its class to {@code subcommands}; the simulator's jar adds {@code simulate} ({@link #launch}).
 */
@Command(name = "cks-state",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "The Kubernetes cluster state machine of Apache CloudStack, from the native core.",
        subcommands = {
            CommandLine.HelpCommand.class,
            TableCommand.class,
            RulesCommand.class,
            ScanCommand.class,
            ExplainCommand.class,
            SchemaCommand.class,
            AlertCommand.class,
        })
public final class CksStateCommand implements Runnable {
    /** The simulator's command, in the simulator's jar only. */
    private static final String SIMULATE = "simulate";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: a usage error. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give a command: "
                + String.join(", ", spec.subcommands().entrySet().stream()
                        .filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden()).map(e -> e.getKey())
                        .toList()));
    }

    /** A CommandLine for this tool, with these subcommands added; enum option values are case-insensitive (--format TSV). */
    /**
     * A usage error's line. An unknown argument is named only if it is an option's name: its value (a
     * mistyped {@code --password S3cret}, an {@code --option=value}) is never echoed, as no flag has said
     * it is a secret.
     */
    static String usageError(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            List<String> names = unmatched.getUnmatched().stream().filter(a -> a.startsWith("-"))
                    .map(a -> a.contains("=") ? a.substring(0, a.indexOf('=')) : a).toList();
            int others = unmatched.getUnmatched().size() - names.size();
            return (names.isEmpty() ? "" : "unknown option" + (names.size() > 1 ? "s " : " ") + String.join(", ", names))
                    + (others == 0 ? "" : (names.isEmpty() ? "" : "; ") + others + " unexpected argument" + (others > 1 ? "s" : "")
                    + " (not shown: it may be a secret)");
        }
        return Secrets.mask(e.getMessage());
    }

    public static CommandLine commandLine(Object... moreSubcommands) {
        CommandLine cl = new CommandLine(new CksStateCommand());
        for (Object command : moreSubcommands) {
            cl.addSubcommand(command);
        }
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // A usage error: the error and where help is, not the whole usage (it pushes the error off the screen).
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine at = e.getCommandLine();
            PrintWriter err = at.getErr();
            err.println(at.getCommandSpec().qualifiedName() + ": " + usageError(e));
            if (asksForTheSimulator(at, args)) {
                err.println("simulate is in the simulator's jar, cks-state-simulator.jar (bin/cks-state, make run)");
            } else {
                CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            }
            err.println("try '" + at.getCommandSpec().qualifiedName() + " --help'");
            err.flush();
            return at.getCommandSpec().exitCodeOnInvalidInput();
        });
        // A failure is the operator's to read: one line, each cause once, never a stack trace or a secret.
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println(commandLine.getCommandSpec().qualifiedName() + ": " + String.join("\n  caused by: ", causes(e)));
            err.flush();
            return 1;
        });
        return cl;
    }

    /** {@code simulate} given to the operator's jar, which leaves the simulator out. */
    private static boolean asksForTheSimulator(CommandLine at, String[] args) {
        return at.getParent() == null && !at.getSubcommands().containsKey(SIMULATE)
                && Arrays.asList(args).contains(SIMULATE);
    }

    /** The messages of a failure and its causes, masked, each once (a cause's text often repeats its wrapper's). */
    static List<String> causes(Throwable e) {
        List<String> out = new ArrayList<>();
        String previous = "";
        for (Throwable t = e; t != null; t = t.getCause()) {
            // A ToolFailure is the tool's own words, whose driver parts were masked when it was made.
            String m = t instanceof ToolFailure ? Secrets.maskShapes(t.getMessage()) : DatabaseErrors.text(t);
            if (!previous.contains(m)) {
                out.add(m);
                previous = m;
            }
            if (t instanceof ToolFailure) {
                break;
            }
        }
        return out;
    }

    private static final String LOG_FACTORY_PROPERTY = "log4j2.loggerContextFactory";
    /** The MariaDB driver logs failures to standard error by itself unless this is set. */
    private static final String MARIADB_LOGGING_DISABLE = "mariadb.logging.disable";

    public static void main(String[] args) {
        System.exit(launch(args));
    }

    /**
     * Runs the tool with {@code args} and these subcommands added (annotated picocli commands); its exit
     * code. The process's logging is set before any command (or driver) class loads.
     */
    public static int launch(String[] args, Object... moreSubcommands) {
        // The tool carries log4j-api without an implementation: log to stderr at ERROR, quietly.
        if (System.getProperty(LOG_FACTORY_PROPERTY) == null) {
            System.setProperty(LOG_FACTORY_PROPERTY, "org.apache.logging.log4j.simple.SimpleLoggerContextFactory");
        }
        // Read before any driver class loads: its loggers are bound once.
        if (!Arrays.asList(args).contains("--verbose") && System.getProperty(MARIADB_LOGGING_DISABLE) == null) {
            System.setProperty(MARIADB_LOGGING_DISABLE, "true");
        }
        return commandLine(moreSubcommands).execute(args);
    }
}
