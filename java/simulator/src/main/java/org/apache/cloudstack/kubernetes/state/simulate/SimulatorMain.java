// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import org.apache.cloudstack.kubernetes.state.tool.cli.CksStateCommand;
import picocli.CommandLine;

/** The simulator's jar: the {@code cks-state} tool with {@code simulate} (and its child servers' {@code simulate-server}). */
public final class SimulatorMain {
    private SimulatorMain() {
    }

    /** The tool's command line with the simulator's commands. */
    public static CommandLine commandLine() {
        return CksStateCommand.commandLine(simulatorCommands());
    }

    public static void main(String[] args) {
        System.exit(CksStateCommand.launch(args, simulatorCommands()));
    }

    private static Object[] simulatorCommands() {
        return new Object[] {new SimulateCommand(), new SimulateServerCommand()};
    }
}
