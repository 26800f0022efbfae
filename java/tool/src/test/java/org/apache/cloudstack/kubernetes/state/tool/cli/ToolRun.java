// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the cks-state tool: exit code, standard output, standard error. */
public record ToolRun(int code, String out, String err) {
    public static ToolRun of(String... args) {
        return on(CksStateCommand.commandLine(), args);
    }

    /** A run of this command line (the simulator's: the tool's commands and simulate). */
    public static ToolRun on(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new ToolRun(code, out.toString(), err.toString());
    }
}
