// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/** Host enum shapes the binding must cope with (CloudStack's order differs between releases). */
final class HostEnums {
    private HostEnums() {
    }

    /** All 15 states, declared in reverse. */
    enum ReverseState {
        Error, Destroying, Destroyed, Recovering, Alert, RemovingNodes, Importing, Upgrading,
        ScalingStoppedCluster, Scaling, Stopped, Stopping, Running, Starting, Created
    }

    /** All 14 events, declared in reverse. */
    enum ReverseEvent {
        FaultsDetected, CreateFailed, OperationFailed, OperationSucceeded, UpgradeRequested,
        RemoveNodeRequested, AddNodeRequested, ScaleDownRequested, ScaleUpRequested,
        AutoscaleRequested, RecoveryRequested, DestroyRequested, StopRequested, StartRequested
    }

    /** CloudStack 4.16-4.20 states: no ScalingStoppedCluster, Importing, RemovingNodes. */
    enum State416 {
        Created, Starting, Running, Stopping, Stopped, Scaling, Upgrading, Alert, Recovering,
        Destroyed, Destroying, Error
    }

    /** CloudStack 4.16-4.20 events: no AddNodeRequested, RemoveNodeRequested. */
    enum Event416 {
        StartRequested, StopRequested, DestroyRequested, RecoveryRequested, AutoscaleRequested,
        ScaleUpRequested, ScaleDownRequested, UpgradeRequested, OperationSucceeded, OperationFailed,
        CreateFailed, FaultsDetected
    }

    /** A state the library does not know. */
    enum UnknownState {
        Created, Running, Hibernating
    }

    /** Constants with bodies are subclasses: the binding must still accept them. */
    enum BodyState {
        Created {
            @Override
            boolean initial() {
                return true;
            }
        },
        Starting, Running, Stopping, Stopped, Alert, Error;

        boolean initial() {
            return false;
        }
    }
}
