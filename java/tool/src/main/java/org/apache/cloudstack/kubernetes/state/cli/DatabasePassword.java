package org.apache.cloudstack.kubernetes.state.cli;

import java.io.Console;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The database password of a command's --user / --password-env, or a prompt on a terminal. */
final class DatabasePassword {
    private DatabasePassword() {
    }

    static String of(CommandSpec spec, String user, String passwordEnv) {
        if (passwordEnv != null) {
            String value = System.getenv(passwordEnv);
            if (value == null) {
                throw new ParameterException(spec.commandLine(), "environment variable " + passwordEnv + " is not set");
            }
            return value;
        }
        if (user == null) {
            return null;
        }
        Console console = System.console();
        if (console == null) {
            throw new ParameterException(spec.commandLine(),
                    "--user needs a password: give --password-env VAR (no terminal to prompt on)");
        }
        char[] typed = console.readPassword("Password for %s: ", user);
        return typed == null ? "" : new String(typed);
    }
}
