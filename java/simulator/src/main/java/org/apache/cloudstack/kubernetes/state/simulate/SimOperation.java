// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.ScaleKind;

/** The operations a simulated user runs, with the CloudStack API command that starts each. */
enum SimOperation {
    START(Operation.START, null, "StartKubernetesClusterCmd", 14),
    STOP(Operation.STOP, null, "StopKubernetesClusterCmd", 12),
    DESTROY(Operation.DESTROY, null, "DeleteKubernetesClusterCmd", 2),
    SCALE_UP(Operation.SCALE, ScaleKind.SCALE_UP, "ScaleKubernetesClusterCmd", 12),
    SCALE_DOWN(Operation.SCALE, ScaleKind.SCALE_DOWN, "ScaleKubernetesClusterCmd", 8),
    OFFERING_CHANGE(Operation.SCALE, ScaleKind.OFFERING_CHANGE, "ScaleKubernetesClusterCmd", 6),
    AUTOSCALE(Operation.AUTOSCALE, ScaleKind.AUTOSCALE, "ScaleKubernetesClusterCmd", 6),
    UPGRADE(Operation.UPGRADE, null, "UpgradeKubernetesClusterCmd", 10),
    ADD_NODES(Operation.ADD_NODES, null, "AddNodesToKubernetesClusterCmd", 8),
    REMOVE_NODES(Operation.REMOVE_NODES, null, "RemoveNodesFromKubernetesClusterCmd", 8);

    private static final String COMMAND_PACKAGE = "org.apache.cloudstack.api.command.user.kubernetes.cluster.";

    final Operation operation;
    /** Non-null for the scale family, which enters its state through the scaling rules. */
    final ScaleKind scaleKind;
    final String jobCmd;
    final int weight;

    SimOperation(Operation operation, ScaleKind scaleKind, String command, int weight) {
        this.operation = operation;
        this.scaleKind = scaleKind;
        this.jobCmd = COMMAND_PACKAGE + command;
        this.weight = weight;
    }

    static int totalWeight() {
        int total = 0;
        for (SimOperation op : values()) {
            total += op.weight;
        }
        return total;
    }
}
