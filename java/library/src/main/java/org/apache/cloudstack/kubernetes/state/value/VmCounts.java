// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * What the status scanner counted of one cluster's VMs ({@code kubernetes_cluster_vm_map} joined
 * with {@code vm_instance}); the core's VM rule judges them.
 *
 * @param expected the nodes the cluster must have (upstream's {@code getTotalNodeCount()})
 * @param mapped   its rows in {@code kubernetes_cluster_vm_map}
 * @param present  mapped VMs that exist (not removed)
 * @param running  present VMs in state Running
 * @param stopped  present VMs in state Stopped
 */
public record VmCounts(long expected, long mapped, long present, long running, long stopped) {
}
