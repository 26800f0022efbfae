// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

/**
 * The {@code job_cmd} values of the Kubernetes cluster commands the kit writes jobs for (the classes of
 * {@code org.apache.cloudstack.api.command.user.kubernetes.cluster}): the kit's own copy of the names in
 * the library's {@code ClusterCommandSet}, written from CloudStack's sources, not read from the library,
 * so that a wrong name in the library fails its tests.
 */
public final class ClusterCommandNames {
    private static final String PACKAGE = "org.apache.cloudstack.api.command.user.kubernetes.cluster.";
    public static final String CREATE = PACKAGE + "CreateKubernetesClusterCmd";
    public static final String START = PACKAGE + "StartKubernetesClusterCmd";
    public static final String STOP = PACKAGE + "StopKubernetesClusterCmd";
    public static final String DELETE = PACKAGE + "DeleteKubernetesClusterCmd";
    public static final String SCALE = PACKAGE + "ScaleKubernetesClusterCmd";
    public static final String UPGRADE = PACKAGE + "UpgradeKubernetesClusterCmd";
    /** CloudStack 4.21 and later. */
    public static final String ADD_NODES = PACKAGE + "AddNodesToKubernetesClusterCmd";
    /** CloudStack 4.21 and later. */
    public static final String REMOVE_NODES = PACKAGE + "RemoveNodesFromKubernetesClusterCmd";

    private ClusterCommandNames() {
    }
}
