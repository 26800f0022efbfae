// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.tool.cli.Secrets;
import org.apache.cloudstack.kubernetes.state.tool.cli.VersionProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cks-state simulate-server}: one management server process of {@code simulate --processes},
 * started by the parent run, never by hand (hidden). Its password comes in the environment.
 */
@Command(name = "simulate-server", hidden = true, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "One management server of simulate --processes (started by it, not by hand).")
final class SimulateServerCommand implements Callable<Integer> {
    @Option(names = "--server", required = true)
    int server;

    @Option(names = "--msid", required = true)
    long msid;

    @Option(names = "--runid", required = true)
    long runid;

    @Option(names = "--jdbc-url", required = true)
    String jdbcUrl;

    @Option(names = "--user")
    String user;

    @Option(names = "--mode", required = true)
    String mode;

    @Option(names = "--workers", required = true)
    int workers;

    @Option(names = "--scanner-ms", required = true)
    int scannerMillis;

    @Option(names = "--widen-windows")
    boolean widenWindows;

    @Option(names = "--log", required = true)
    Path log;

    @Override
    public Integer call() throws Exception {
        String password = System.getenv(ServerProcess.PASSWORD_ENV);
        Secrets.register(password);
        Secrets.registerUrl(jdbcUrl);
        ServerProcess.Settings settings = new ServerProcess.Settings(server, msid, runid, jdbcUrl, user, password,
                StateMode.fromConfig(mode), workers, scannerMillis, widenWindows, log);
        return ServerProcess.run(settings, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
    }
}
