// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

/**
 * The lines the parent writes to a server process: one scripted operation a line, then
 * {@link #END}. One format, written and read here only.
 */
final class ProcessCommands {
    static final String END = "end";
    /** What a server process prints on standard output once it is up and takes operations. */
    static final String READY = "ready";

    private ProcessCommands() {
    }

    /** {@code op index cluster kind atMillis workMillis fails legacyJob}. */
    static String line(ScriptedOperation op) {
        return "op " + op.index() + " " + op.cluster() + " " + op.kind().name() + " " + op.atMillis() + " "
                + op.workMillis() + " " + op.fails() + " " + op.legacyJob();
    }

    /** The operation of a line, run by server {@code server}. */
    static ScriptedOperation operation(String line, int server) {
        String[] f = line.split(" ");
        if (f.length != 8 || !f[0].equals("op")) {
            throw new IllegalArgumentException("not an operation line: '" + line + "'");
        }
        return new ScriptedOperation(Integer.parseInt(f[1]), Integer.parseInt(f[2]), server, SimOperation.valueOf(f[3]),
                Long.parseLong(f[4]), Integer.parseInt(f[5]), Boolean.parseBoolean(f[6]), Boolean.parseBoolean(f[7]));
    }
}
