// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

/**
 * One user request of the script.
 *
 * @param index      position in the script
 * @param cluster    index of the cluster (0-based)
 * @param server     index of the management server the request reaches
 * @param kind       the operation
 * @param atMillis   when the request arrives, from the start of the run
 * @param workMillis how long the operation's work takes
 * @param fails      whether the work fails
 * @param legacyJob  whether its job is written as an older server does (no instance_id)
 */
record ScriptedOperation(int index, int cluster, int server, SimOperation kind, long atMillis, int workMillis,
        boolean fails, boolean legacyJob) {
}
