// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * The newest CloudStack names of a Kubernetes cluster's states and events (15 states, 14 events),
 * for tests and the command-line tool (named apart from CloudStack's own {@code KubernetesCluster}). Declared in the order of {@code spec/state-machine.tsv}:
 * CloudStack 4.22's own declaration order could not be checked here, and the binding never
 * depends on order anyway (it binds by name).
 */
public interface ReferenceCluster {
    /** Cluster states, stored by name in {@code kubernetes_cluster.state}. */
    enum State {
        Created,
        Starting,
        Running,
        Stopping,
        Stopped,
        Scaling,
        ScalingStoppedCluster,
        Upgrading,
        Importing,
        RemovingNodes,
        Alert,
        Recovering,
        Destroyed,
        Destroying,
        Error
    }

    /** Events that move a cluster between states. */
    enum Event {
        StartRequested,
        StopRequested,
        DestroyRequested,
        RecoveryRequested,
        AutoscaleRequested,
        ScaleUpRequested,
        ScaleDownRequested,
        AddNodeRequested,
        RemoveNodeRequested,
        UpgradeRequested,
        OperationSucceeded,
        OperationFailed,
        CreateFailed,
        FaultsDetected
    }
}
