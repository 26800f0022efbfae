// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.util.UUID;

/**
 * How a management server of each release writes the {@code async_job} row of a Kubernetes
 * cluster command ({@code ApiServer.queueCommand}): {@code instance_type} is the command's
 * {@code getApiResourceType()}, {@code instance_id} its {@code getApiResourceId()} (a create
 * command's new entity id always), and {@code job_cmd_info} the request's parameters as JSON, where
 * {@code "id"} is the cluster's uuid as the API call gave it, except for a create command, whose
 * {@code "id"} becomes the new cluster's database id and {@code "uuid"} its uuid.
 */
public enum JobShape {
    /** 4.14 to 4.19.0: the CKS commands report no resource type, {@code BaseCmd}'s {@code None}. */
    BEFORE_4_19_1,
    /**
     * 4.19.1 to 4.22 (apache/cloudstack#9070): {@code KubernetesCluster}; create, delete, add and
     * remove nodes record the cluster in {@code instance_id}, start, stop, scale and upgrade do not.
     */
    CURRENT,
    /** The upstream change: every cluster command records its cluster. */
    UPSTREAM;

    /** instance_type as this release writes it for {@code cmd}. */
    public String instanceType(String cmd) {
        return this == BEFORE_4_19_1 ? "None" : "KubernetesCluster";
    }

    /** instance_id as this release writes it for {@code cmd} on cluster {@code clusterId}. */
    public Long instanceId(String cmd, long clusterId) {
        boolean recorded = switch (this) {
            case BEFORE_4_19_1 -> cmd.equals(ClusterCommandNames.CREATE);
            case CURRENT -> cmd.equals(ClusterCommandNames.CREATE) || cmd.equals(ClusterCommandNames.DELETE)
                    || cmd.equals(ClusterCommandNames.ADD_NODES) || cmd.equals(ClusterCommandNames.REMOVE_NODES);
            case UPSTREAM -> true;
        };
        return recorded ? clusterId : null;
    }

    /**
     * job_cmd_info as {@code ApiServer.queueCommand} writes it: the request's parameters (every
     * value a string) plus its own keys, {@code ctxDetails} a JSON text inside a string.
     */
    public static String cmdInfo(String cmd, Long clusterId, String clusterUuid) {
        boolean create = ClusterCommandNames.CREATE.equals(cmd);
        String entity = clusterUuid != null ? clusterUuid : UUID.randomUUID().toString();
        StringBuilder json = new StringBuilder("{\"response\":\"json\",\"ctxDetails\":\"{\\\"interface com.cloud.kubernetes.cluster.KubernetesCluster\\\":\\\"")
                .append(entity).append("\\\"}\",\"sessionkey\":\"").append(UUID.randomUUID()).append('"');
        if (clusterId != null) {
            json.append(",\"id\":\"").append(create ? String.valueOf(clusterId) : clusterUuid).append('"')
                    .append(",\"uuid\":\"").append(clusterUuid).append('"');
        }
        if (ClusterCommandNames.SCALE.equals(cmd)) {
            json.append(",\"size\":\"3\"");
        }
        return json.append(",\"ctxUserId\":\"").append(CloudStackRows.USER_ID).append("\",\"httpmethod\":\"POST\"")
                .append(",\"ctxAccountId\":\"").append(CloudStackRows.ACCOUNT_ID).append("\",\"ctxStartEventId\":\"1\"")
                .append(",\"cmdEventType\":\"KUBERNETES.CLUSTER.").append(event(cmd)).append("\"}").toString();
    }

    private static String event(String cmd) {
        String simple = cmd.substring(cmd.lastIndexOf('.') + 1);
        return switch (simple) {
            case "CreateKubernetesClusterCmd" -> "CREATE";
            case "DeleteKubernetesClusterCmd" -> "DELETE";
            case "StartKubernetesClusterCmd" -> "START";
            case "StopKubernetesClusterCmd" -> "STOP";
            case "ScaleKubernetesClusterCmd" -> "SCALE";
            case "UpgradeKubernetesClusterCmd" -> "UPGRADE";
            case "AddNodesToKubernetesClusterCmd" -> "NODES.ADD";
            case "RemoveNodesFromKubernetesClusterCmd" -> "NODES.REMOVE";
            default -> "OTHER";
        };
    }
}
