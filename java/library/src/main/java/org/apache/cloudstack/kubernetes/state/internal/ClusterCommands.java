// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.internal;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The asynchronous API commands of CloudStack's Kubernetes Service that act on one cluster (the
 * classes of {@code org.apache.cloudstack.api.command.user.kubernetes.cluster} that extend
 * {@code BaseAsyncCmd} or {@code BaseAsyncCreateCmd}): the {@code async_job.job_cmd} of every job
 * that acts on a Kubernetes cluster, whatever its {@code instance_type} says (4.14 to 4.19.0 write
 * {@code 'None'}, 4.19.1 and later {@code 'KubernetesCluster'}).
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

    /** Every cluster command, create first. */
    public static final List<String> ALL = List.of(CREATE, START, STOP, DELETE, SCALE, UPGRADE, ADD_NODES, REMOVE_NODES);

    /** {@code job_cmd IN (...)} over {@link #ALL}: the jobs that act on a cluster (an index range on {@code i_async__job_cmd}). */
    static final String JOB_CMD_IN = ALL.stream().map(cmd -> "'" + cmd + "'")
            .collect(Collectors.joining(", ", "job_cmd IN (", ")"));

    private ClusterCommands() {
    }
}
