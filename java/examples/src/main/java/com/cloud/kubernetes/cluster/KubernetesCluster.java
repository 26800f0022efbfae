package com.cloud.kubernetes.cluster;

/**
 * The examples' own copy of CloudStack's {@code com.cloud.kubernetes.cluster.KubernetesCluster}:
 * the constant names of its State and Event enums as CloudStack has them, in an order of their own
 * (the library binds by name, never by order), and the two getters the snippets use.
 */
public interface KubernetesCluster {
    long getId();

    State getState();

    enum State {
        Created, Starting, Running, Stopping, Stopped, Scaling, Upgrading, Alert, Recovering, Destroying, Destroyed,
        Error, Importing, RemovingNodes, ScalingStoppedCluster
    }

    enum Event {
        StartRequested, StopRequested, DestroyRequested, RecoveryRequested, ScaleUpRequested, ScaleDownRequested,
        AutoscaleRequested, UpgradeRequested, AddNodeRequested, RemoveNodeRequested, OperationSucceeded,
        OperationFailed, CreateFailed, FaultsDetected
    }
}
