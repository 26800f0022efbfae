// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

/**
 * The second JVM of the contention test, started by {@link ContentionTest} with the test class
 * path. Arguments: JDBC URL, cluster id, threads, rounds. Prints one {@code RESULT} line per round
 * (round winners losers others exceptions) and {@code DONE}; exits 1 on failure.
 */
public final class ContentionWorker {
    private ContentionWorker() {
    }

    public static void main(String[] args) {
        try {
            String url = args[0];
            long clusterId = Long.parseLong(args[1]);
            int threads = Integer.parseInt(args[2]);
            int rounds = Integer.parseInt(args[3]);
            ContentionRace.Tally tally = new ContentionRace(
                    () -> java.sql.DriverManager.getConnection(url), clusterId, 1, false, threads, rounds).run();
            StringBuilder out = new StringBuilder();
            for (int r = 0; r < rounds; r++) {
                out.append("RESULT ").append(r).append(' ').append(tally.winners[r]).append(' ')
                        .append(tally.losers[r]).append(' ').append(tally.others[r]).append(' ')
                        .append(tally.exceptions[r]).append('\n');
            }
            out.append("DONE\n");
            System.out.print(out);
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }
}
