// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cks-state rules}: the entry-rule matrix, operations x states. */
@Command(name = "rules", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Print the entry rules: for each operation (row) and state (column) what the operation does:"
                + " '-> Target' (transition), 'proceed', 'nothing' (already done) or 'refuse'.")
final class RulesCommand implements Runnable {
    /** Output formats of the matrix. */
    enum Format { tsv, markdown, mermaid, dot }

    @Spec
    CommandSpec spec;

    @Option(names = "--format", defaultValue = "tsv", description = "tsv, markdown (the matrix), mermaid or dot (a graph: an edge per operation that may"
                    + " start from a state; refusals are left out) (default: ${DEFAULT-VALUE})")
    Format format;

    @Mixin
    TableOption tableOption;

    @Mixin
    DatabaseOptions database;

    @Override
    public void run() {
        ClusterStateMachine<State, Event> machine =
                ClusterStateMachine.bind(State.class, Event.class, tableOption.resolve(spec, database).profile());
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.mermaid || format == Format.dot) {
            graph(machine, out);
        } else {
            matrix(machine, out);
        }
        out.flush();
    }

    /** One edge per operation a state admits: to its target, or back to the state itself. */
    private void graph(ClusterStateMachine<State, Event> machine, PrintWriter out) {
        boolean mermaid = format == Format.mermaid;
        out.println(mermaid ? "flowchart LR" : "digraph cks_state_rules {");
        for (State s : State.values()) {
            for (Operation op : Operation.values()) {
                EntryDecision<State, Event> d = machine.decideEntry(op, s);
                if (d.kind() == EntryDecision.Kind.REFUSE) {
                    continue;
                }
                State to = d.kind() == EntryDecision.Kind.TRANSITION ? d.update().target() : s;
                String label = op.specName() + (d.kind() == EntryDecision.Kind.TRANSITION ? "" : " " + cell(d));
                if (mermaid) {
                    String arrow = d.kind() == EntryDecision.Kind.TRANSITION ? " -->|" : " -.->|";
                    out.println("    " + s + arrow + label + "| " + to);
                } else {
                    String style = d.kind() == EntryDecision.Kind.TRANSITION ? "" : ", style=dashed";
                    out.println("    \"" + s + "\" -> \"" + to + "\" [label=\"" + label + "\"" + style + "];");
                }
            }
        }
        if (!mermaid) {
            out.println("}");
        }
    }

    private void matrix(ClusterStateMachine<State, Event> machine, PrintWriter out) {
        String sep = format == Format.tsv ? "\t" : " | ";
        String open = format == Format.tsv ? "" : "| ";
        String close = format == Format.tsv ? "" : " |";
        StringBuilder header = new StringBuilder(open).append("Operation");
        for (State s : State.values()) {
            header.append(sep).append(s.name());
        }
        out.println(header.append(close));
        if (format == Format.markdown) {
            out.println("|---" + "|---".repeat(State.values().length) + "|");
        }
        for (Operation op : Operation.values()) {
            StringBuilder line = new StringBuilder(open).append(op.specName());
            for (State s : State.values()) {
                line.append(sep).append(cell(machine.decideEntry(op, s)));
            }
            out.println(line.append(close));
        }
    }

    static String cell(EntryDecision<State, Event> d) {
        return switch (d.kind()) {
            case TRANSITION -> "-> " + d.update().target();
            case PROCEED -> "proceed";
            case NOTHING_TO_DO -> "nothing";
            default -> "refuse";
        };
    }
}
