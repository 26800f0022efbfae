// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parent's handle on one management server process: its run, its standard input (the
 * operations), and the signals of the faults: SIGKILL, SIGSTOP, SIGCONT.
 */
final class ChildServer {
    private static final String MAIN = SimulatorMain.class.getName();

    final int index;
    final long runid;
    final Path log;
    private final Process process;
    private final Writer commands;
    private volatile boolean paused;
    private volatile boolean ready;

    private ChildServer(int index, long runid, Path log, Process process) {
        this.index = index;
        this.runid = runid;
        this.log = log;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readOutput, "cks-simulate-server-" + index + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    private void readOutput() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals(ProcessCommands.READY)) {
                    ready = true;
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    /** Waits until it is up (bounded); false when it ended or did not get there in time. */
    boolean awaitReady(long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (!ready && process.isAlive() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        return ready;
    }

    /** The user:password@ form of a URL's authority. */
    private static final Pattern URL_USERINFO = Pattern.compile("//([^/:@]+):([^/@]*)@");

    /**
     * Starts the run {@code runid} of server {@code s.index()}: this JVM, its class path, the hidden
     * command. A password, also one inside the URL, goes in the environment: a command line is
     * visible to every user of the machine.
     */
    static ChildServer start(ServerProcess.Settings s, Path dir) throws IOException {
        UrlParameter inUrl = UrlParameter.take(s.jdbcUrl(), "password|pwd");
        String url = inUrl.url();
        String password = s.password() != null ? s.password() : inUrl.value();
        Matcher info = URL_USERINFO.matcher(url);
        if (info.find()) {
            if (password == null) {
                password = URLDecoder.decode(info.group(2), StandardCharsets.UTF_8);
            }
            url = url.substring(0, info.start()) + "//" + info.group(1) + "@" + url.substring(info.end());
        }
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xmx160m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("cks.state.")) { // where the library is, in tests and benches
                command.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MAIN, "simulate-server",
                "--server", Integer.toString(s.index()), "--msid", Long.toString(s.msid()),
                "--runid", Long.toString(s.runid()), "--jdbc-url", url, "--mode", s.mode().label(),
                "--workers", Integer.toString(s.workers()), "--scanner-ms", Integer.toString(s.scannerMillis()),
                "--log", s.log().toString()));
        if (s.user() != null) {
            command.addAll(List.of("--user", s.user()));
        }
        if (s.widenWindows()) {
            command.add("--widen-windows");
        }
        ProcessBuilder pb = new ProcessBuilder(command);
        if (password != null) {
            pb.environment().put(ServerProcess.PASSWORD_ENV, password);
        }
        pb.redirectError(dir.resolve("server-" + s.index() + "-run-" + s.runid() + ".err").toFile());
        return new ChildServer(s.index(), s.runid(), s.log(), pb.start());
    }

    long pid() {
        return process.pid();
    }

    /** Up: running, not paused, and ready for operations. */
    boolean alive() {
        return ready && process.isAlive() && !paused;
    }

    boolean running() {
        return process.isAlive();
    }

    /** Sends one command line; false when the process is gone. */
    synchronized boolean send(String line) {
        try {
            commands.write(line + "\n");
            commands.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** SIGKILL, and waits (bounded) until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("server " + index + " (pid " + pid() + ") survived SIGKILL for 30 s");
        }
    }

    /** SIGSTOP; false when the process had ended already (nothing paused). */
    boolean pause() throws IOException, InterruptedException {
        paused = signal("STOP");
        return paused;
    }

    void resume() throws IOException, InterruptedException {
        signal("CONT");
        paused = false;
    }

    /** Sends the signal while the process runs (its pid is not anyone else's then); false when it ended. */
    private boolean signal(String name) throws IOException, InterruptedException {
        if (!process.isAlive()) {
            return false;
        }
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).redirectErrorStream(true).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS)) {
            kill.destroyForcibly();
            throw new IllegalStateException("kill -" + name + " " + pid() + " did not finish within 10 s");
        }
        if (kill.exitValue() != 0 && process.isAlive()) {
            throw new IllegalStateException("kill -" + name + " " + pid() + " failed (exit " + kill.exitValue() + ")");
        }
        return kill.exitValue() == 0;
    }

    /** Asks it to finish its operations and stop; the exit code, or -1 when it had to be killed. */
    int stop(long waitMillis) throws InterruptedException {
        send(ProcessCommands.END);
        try {
            commands.close();
        } catch (IOException e) {
            // gone already
        }
        if (process.waitFor(waitMillis, TimeUnit.MILLISECONDS)) {
            return process.exitValue();
        }
        kill();
        return -1;
    }

    /** The exit code once it ended by itself, or waits up to {@code millis}; -1 while it runs. */
    int exitCode(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }
}
