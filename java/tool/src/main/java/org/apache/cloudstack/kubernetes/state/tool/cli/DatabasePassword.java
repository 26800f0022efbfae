// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.Console;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The database password of a command's --user / --password-env, or a prompt on a terminal. */
final class DatabasePassword {
    /** Reads a password typed for {@code user}; null when there is no terminal to ask on. */
    @FunctionalInterface
    interface Prompt {
        String ask(String user);
    }

    /** The terminal's prompt (tests type through another). */
    static volatile Prompt prompt = DatabasePassword::askTerminal;

    private DatabasePassword() {
    }

    static String of(CommandSpec spec, String user, String passwordEnv) {
        if (passwordEnv != null) {
            String value = System.getenv(passwordEnv);
            if (value == null) {
                throw new ParameterException(spec.commandLine(), "environment variable " + passwordEnv + " is not set");
            }
            Secrets.register(value);
            return value;
        }
        if (user == null) {
            return null;
        }
        String typed = prompt.ask(user);
        if (typed == null) {
            throw new ParameterException(spec.commandLine(),
                    "--user needs a password: give --password-env VAR (no terminal to prompt on)");
        }
        Secrets.register(typed);
        return typed;
    }

    private static String askTerminal(String user) {
        Console console = System.console();
        if (console == null) {
            return null;
        }
        char[] typed = console.readPassword("Password for %s: ", user);
        return typed == null ? "" : new String(typed);
    }
}
