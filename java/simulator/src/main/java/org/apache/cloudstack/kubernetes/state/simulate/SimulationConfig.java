// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import org.apache.cloudstack.kubernetes.state.StateMode;

/**
 * What one simulation runs.
 *
 * @param servers             simulated management servers
 * @param clusters            Kubernetes clusters
 * @param operations          user operations in the script
 * @param crashes             management server crashes in the script
 * @param seed                seed of the operation script: same seed, same script
 * @param maxSeconds          stop dispatching after this many seconds of wall time
 * @param workersPerServer    worker threads per management server
 * @param meanOperationMillis mean (scaled) duration of an operation's work
 * @param arrivalMillis       mean time between two operation requests
 * @param scannerMillis       time between two status scanner passes on each server
 * @param failureRate         share of operations whose work fails
 * @param legacyJobRate       share of jobs written as an older server does (instance_id NULL)
 * @param widenWindows        delay at the points where the upstream design admits windows
 * @param jdbcUrl             database, or null for an embedded H2 in a temp folder
 * @param user                database user (with jdbcUrl)
 * @param password            database password (with jdbcUrl)
 * @param mode                compat (default) or fenced: which guard and scanner the servers run
 */
public record SimulationConfig(int servers, int clusters, int operations, int crashes, long seed, int maxSeconds,
        int workersPerServer, int meanOperationMillis, int arrivalMillis, int scannerMillis, double failureRate,
        double legacyJobRate, boolean widenWindows, String jdbcUrl, String user, String password, StateMode mode) {

    /** The pause added at each window point with widenWindows. */
    static final int WIDEN_MILLIS = 40;

    /** A compat-mode simulation. */
    public SimulationConfig(int servers, int clusters, int operations, int crashes, long seed, int maxSeconds,
            int workersPerServer, int meanOperationMillis, int arrivalMillis, int scannerMillis, double failureRate,
            double legacyJobRate, boolean widenWindows, String jdbcUrl, String user, String password) {
        this(servers, clusters, operations, crashes, seed, maxSeconds, workersPerServer, meanOperationMillis,
                arrivalMillis, scannerMillis, failureRate, legacyJobRate, widenWindows, jdbcUrl, user, password,
                StateMode.COMPAT);
    }

    public SimulationConfig {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        positive("servers", servers);
        positive("clusters", clusters);
        positive("workersPerServer", workersPerServer);
        positive("maxSeconds", maxSeconds);
        positive("meanOperationMillis", meanOperationMillis);
        positive("scannerMillis", scannerMillis);
        if (operations < 0 || crashes < 0 || arrivalMillis < 0) {
            throw new IllegalArgumentException("operations, crashes and arrivalMillis must not be negative");
        }
        if (failureRate < 0 || failureRate > 1 || legacyJobRate < 0 || legacyJobRate > 1) {
            throw new IllegalArgumentException("failureRate and legacyJobRate must be between 0 and 1");
        }
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** The defaults of {@code cks-state simulate}: a few seconds on 2 cores. */
    public static SimulationConfig defaults() {
        return new SimulationConfig(3, 24, 400, 4, 42L, 60, 6, 40, 6, 40, 0.1, 0.1, false, null, null, null);
    }
}
