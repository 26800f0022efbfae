// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** One {@code kubernetes_cluster} row: 1 control node, 1 worker, a random uuid and name, unless set. */
public final class ClusterInsert {
    private final ConnectionOpener source;

    private final String state;
    private String uuid = UUID.randomUUID().toString();
    private String name;
    private String type = "CloudManaged";
    private int controls = 1;
    private int workers = 1;
    private Integer etcd;
    private boolean removed;

    ClusterInsert(ConnectionOpener source, String state) {
        this.source = source;
        this.state = state;
    }

    public ClusterInsert uuid(String clusterUuid) {
        this.uuid = clusterUuid;
        return this;
    }

    public ClusterInsert name(String clusterName) {
        this.name = clusterName;
        return this;
    }

    /** cluster_type: CloudManaged or ExternalManaged. */
    public ClusterInsert type(String clusterType) {
        this.type = clusterType;
        return this;
    }

    public ClusterInsert nodes(int controlNodes, int workerNodes) {
        this.controls = controlNodes;
        this.workers = workerNodes;
        return this;
    }

    /** etcd_node_count (4.21+); null as CloudStack writes it for a cluster without etcd nodes. */
    public ClusterInsert etcd(Integer etcdNodes) {
        this.etcd = etcdNodes;
        return this;
    }

    /** Soft-deleted, as the garbage collector leaves a destroyed cluster. */
    public ClusterInsert removed(boolean soft) {
        this.removed = soft;
        return this;
    }

    /** Writes the row; its id. */
    public long insert() throws SQLException {
        try (Connection c = source.open()) {
            CloudStackRows.parents(c);
            return RowWriter.insertReturningId(c, "kubernetes_cluster", row(), "created", removed);
        }
    }

    private Map<String, Object> row() {
        boolean cloudManaged = "CloudManaged".equals(type);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("uuid", uuid);
        row.put("name", name != null ? name : "k8s-" + uuid.substring(0, 8));
        row.put("description", "Kubernetes cluster");
        row.put("zone_id", CloudStackRows.ZONE_ID);
        row.put("kubernetes_version_id", cloudManaged ? CloudStackRows.KUBERNETES_VERSION_ID : null);
        row.put("service_offering_id", cloudManaged ? CloudStackRows.SERVICE_OFFERING_ID : null);
        row.put("template_id", cloudManaged ? CloudStackRows.TEMPLATE_ID : null);
        row.put("control_node_count", controls);
        row.put("node_count", workers);
        row.put("account_id", CloudStackRows.ACCOUNT_ID);
        row.put("domain_id", CloudStackRows.DOMAIN_ID);
        row.put("state", state);
        row.put("cores", 2L * (controls + workers));
        row.put("memory", 4096L * (controls + workers));
        row.put("node_root_disk_size", 8L);
        row.put("gc", 1);
        row.put("cluster_type", type);
        if (etcd != null) {
            row.put("etcd_node_count", etcd);
        }
        return row;
    }
}
