// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One management server process's log of its own actions, for the checker: one line per event,
 * {@code <monotonic nanos> <event> <fields...>}, each handed to the kernel by its own write(2), so a
 * SIGKILL loses no line written before it. An intent line is written before the action it names
 * (ENTER, COMPLETE, RECOVER, PEER_DOWN, SELF_FENCE), a result line after it. The monotonic clock is
 * the machine's (Linux CLOCK_MONOTONIC): the lines of all processes on one machine sort together.
 */
final class ActionLog implements AutoCloseable {
    private final FileOutputStream out;

    ActionLog(Path file) {
        try {
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("action log " + file, e);
        }
    }

    /** Writes {@code event} and its fields as one line. */
    synchronized void write(String event, Object... fields) {
        StringBuilder line = new StringBuilder(64).append(System.nanoTime()).append(' ').append(event);
        for (Object f : fields) {
            line.append(' ').append(f);
        }
        line.append('\n');
        try {
            out.write(line.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("action log", e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
