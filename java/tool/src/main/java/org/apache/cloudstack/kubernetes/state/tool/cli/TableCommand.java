// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cks-state table}: the transition table, as the native library has it. */
@Command(name = "table", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Print the transition table (tsv: From<TAB>Event<TAB>To, one line per transition, no header).")
final class TableCommand implements Runnable {
    /** Output formats of the table. */
    enum Format { tsv, markdown, mermaid, dot }

    @Spec
    CommandSpec spec;

    @Option(names = "--format", defaultValue = "tsv",
            description = "tsv, markdown, mermaid or dot (default: ${DEFAULT-VALUE})")
    Format format;

    @Mixin
    TableOption tableOption;

    @Mixin
    DatabaseOptions database;

    @Override
    public void run() {
        List<StateUpdate<State, Event>> rows =
                ClusterStateMachine.bind(State.class, Event.class, tableOption.resolve(spec, database).profile()).transitions();
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case tsv -> rows.forEach(r -> out.println(r.expected() + "\t" + r.event() + "\t" + r.target()));
            case markdown -> {
                out.println("| From | Event | To |");
                out.println("|---|---|---|");
                rows.forEach(r -> out.println("| " + r.expected() + " | " + r.event() + " | " + r.target() + " |"));
            }
            case mermaid -> {
                out.println("stateDiagram-v2");
                rows.forEach(r -> out.println("    " + r.expected() + " --> " + r.target() + " : " + r.event()));
            }
            default -> {
                out.println("digraph cks_state {");
                rows.forEach(r -> out.println("    \"" + r.expected() + "\" -> \"" + r.target()
                        + "\" [label=\"" + r.event() + "\"];"));
                out.println("}");
            }
        }
        out.flush();
    }
}
