// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.sql;

import java.util.List;

/**
 * The asynchronous API commands of CloudStack's Kubernetes Service that act on one cluster, per release
 * line (the classes of {@code org.apache.cloudstack.api.command.user.kubernetes.cluster} that extend
 * {@code BaseAsyncCmd} or {@code BaseAsyncCreateCmd}, as each line's {@code KubernetesClusterManagerImpl.getCommands()}
 * registers them): the tool's lists, which has no plugin to ask. The plugin hands its own.
 */
public final class ClusterCommands {
    /** The package of the cluster commands. */
    public static final String PACKAGE = "org.apache.cloudstack.api.command.user.kubernetes.cluster.";
    /** A {@code BaseAsyncCreateCmd}: its job names the new cluster by {@code instance_id}, and its {@code "id"} is numeric. */
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

    /** 4.20's, create first. */
    public static final List<String> OF_4_20 = List.of(CREATE, START, STOP, DELETE, SCALE, UPGRADE);
    /** 4.21's and later, create first. */
    public static final List<String> OF_4_21 = List.of(CREATE, START, STOP, DELETE, SCALE, UPGRADE, ADD_NODES, REMOVE_NODES);

    /** The {@code instance_type} of these commands' jobs since CloudStack 4.19.1 ({@code ApiCommandResourceType.KubernetesCluster}). */
    public static final String RESOURCE_TYPE = "KubernetesCluster";

    private ClusterCommands() {
    }
}
