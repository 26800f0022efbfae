// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A run's temp folder, deleted at the end. */
final class TempTree {
    private TempTree() {
    }

    /** Deletes {@code root} and what it holds; a leftover is harmless (a temp folder), so failures are ignored. */
    static void delete(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // nobody needs a leftover temp folder: the next run makes its own
        }
    }
}
