package org.apache.cloudstack.kubernetes.state.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code cks-state} tool. Add a subcommand by adding its class to {@code subcommands}. */
@Command(name = "cks-state",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "The Kubernetes cluster state machine of Apache CloudStack, from the native core.",
        subcommands = {
            TableCommand.class,
            RulesCommand.class,
            SimulateCommand.class,
            ScanCommand.class,
            ExplainCommand.class,
        })
public final class CksStateCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: show the usage, as a usage error. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
    }

    /** A CommandLine for this tool; enum option values are case-insensitive (--format TSV). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new CksStateCommand());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // A database or library failure is the user's to read, not a stack trace: one line per cause.
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            StringBuilder message = new StringBuilder("cks-state ").append(commandLine.getCommandName()).append(": ");
            String sep = "";
            for (Throwable t = e; t != null; t = t.getCause()) {
                message.append(sep).append(t.getMessage() == null ? t.getClass().getSimpleName() : Secrets.mask(t.getMessage()));
                sep = "\n  caused by: ";
            }
            commandLine.getErr().println(message);
            commandLine.getErr().flush();
            return 1;
        });
        return cl;
    }

    private static final String LOG_FACTORY_PROPERTY = "log4j2.loggerContextFactory";

    public static void main(String[] args) {
        // The tool carries log4j-api without an implementation: log to stderr at ERROR, quietly.
        if (System.getProperty(LOG_FACTORY_PROPERTY) == null) {
            System.setProperty(LOG_FACTORY_PROPERTY, "org.apache.logging.log4j.simple.SimpleLoggerContextFactory");
        }
        System.exit(commandLine().execute(args));
    }
}
