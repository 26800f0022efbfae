package org.apache.cloudstack.kubernetes.state.cli;

/** Placeholder entry point until the command-line tool lands. */
public final class CksStateCommand {
    private CksStateCommand() {
    }

    public static void main(String[] args) {
        System.out.println("cks-state");
    }
}
