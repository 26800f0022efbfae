// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.examples;

/**
 * A host program's own cluster enums: the library binds any host's {@code State} and {@code Event}
 * enums by constant name (CloudStack's are {@code KubernetesCluster.State} / {@code Event}; the patch
 * series in cloudstack/ binds those).
 */
public interface HostCluster {
    enum State {
        Created, Starting, Running, Stopping, Stopped, Scaling, ScalingStoppedCluster, Upgrading, Importing,
        RemovingNodes, Alert, Recovering, Destroyed, Destroying, Error
    }

    enum Event {
        StartRequested, StopRequested, DestroyRequested, RecoveryRequested, AutoscaleRequested, ScaleUpRequested,
        ScaleDownRequested, AddNodeRequested, RemoveNodeRequested, UpgradeRequested, OperationSucceeded,
        OperationFailed, CreateFailed, FaultsDetected
    }
}
