// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.value.VmCounts;

/** The SQL of the status scanner's reconciliation listing, and the reading of its results. */
final class ScanQueries {
    private ScanQueries() {
    }

    /** What a reconciliation pass read of one cluster: the scanner's own row, and what it counted of its VMs. */
    record ListedCluster<T>(T row, VmCounts vms) {
    }

    /** Reads the scanner's own columns of one listed row. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Runs a {@link #reconcileListing} and commits. In listing order, by id. */
    static <T> Map<Long, ListedCluster<T>> listForReconcile(Connection c, String sql, RowReader<T> reader,
            int firstVmColumn) throws SQLException {
        Map<Long, ListedCluster<T>> listed = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                listed.put(rs.getLong(1), new ListedCluster<>(reader.read(rs), vmCounts(rs, firstVmColumn)));
            }
        }
        c.commit();
        return listed;
    }

    /** {@code 'A', 'B'}: enum constant names are Java identifiers, safe to inline in SQL. */
    static String quotedNames(Collection<? extends Enum<?>> constants) {
        StringBuilder in = new StringBuilder();
        for (Enum<?> c : constants) {
            in.append(in.length() == 0 ? "" : ", ").append('\'').append(c.name()).append('\'');
        }
        return in.toString();
    }

    /**
     * A scanner's reconcile listing, its SQL made at the first pass: the node count it compares
     * with depends on the schema's release, probed once on a connection of {@code probe} (the
     * DAO's, so a pass's statement count stays the pass's own).
     */
    static final class Listing {
        private final String clusterColumns;
        private final Enum<?> alert;
        private final Enum<?> running;
        private final ConnectionSource probe;
        private volatile String sql;

        Listing(String clusterColumns, Enum<?> alert, Enum<?> running, ConnectionSource probe) {
            this.clusterColumns = clusterColumns;
            this.alert = alert;
            this.running = running;
            this.probe = probe;
        }

        String sql() throws SQLException {
            String made = sql;
            if (made == null) {
                try (Connection c = probe.open()) {
                    made = reconcileListing(clusterColumns, expectedNodes(c), alert, running);
                }
                sql = made;
            }
            return made;
        }
    }

    /**
     * The nodes a cluster must have, as upstream's {@code KubernetesClusterVO.getTotalNodeCount()}
     * counts them (CloudStack 4.21 and later: control + worker + etcd nodes, where node_count
     * includes the nodes add-nodes added). Where the schema predates etcd nodes (4.20 and older),
     * control + worker.
     */
    static String expectedNodes(Connection c) throws SQLException {
        return TableColumns.of(c, "kubernetes_cluster").contains("etcd_node_count")
                ? "kc.control_node_count + kc.node_count + COALESCE(kc.etcd_node_count, 0)"
                : "kc.control_node_count + kc.node_count";
    }

    /**
     * The CloudManaged clusters in {@code alert} or {@code running}, by id: {@code clusterColumns}
     * (of {@code kc}) first, then the five columns {@link #vmCounts} reads; {@code expectedNodes}
     * is {@link #expectedNodes}'s expression for this database.
     */
    static String reconcileListing(String clusterColumns, String expectedNodes, Enum<?> alert, Enum<?> running) {
        return "SELECT " + clusterColumns + ", " + expectedNodes + ", COUNT(m.id), COUNT(vm.id),"
                + " COALESCE(SUM(CASE WHEN vm.state = 'Running' THEN 1 ELSE 0 END), 0),"
                + " COALESCE(SUM(CASE WHEN vm.state = 'Stopped' THEN 1 ELSE 0 END), 0)"
                + " FROM kubernetes_cluster kc"
                + " LEFT JOIN kubernetes_cluster_vm_map m ON m.cluster_id = kc.id"
                + " LEFT JOIN vm_instance vm ON vm.id = m.vm_id AND vm.removed IS NULL"
                + " WHERE kc.state IN ('" + alert.name() + "', '" + running.name() + "')"
                + " AND kc.removed IS NULL AND kc.cluster_type = '" + ClusterStateScanner.CLOUD_MANAGED + "'"
                + " GROUP BY " + clusterColumns + ", " + expectedNodes + " ORDER BY kc.id";
    }

    /** The VMs of a listed cluster, from the five columns at {@code first} of {@link #reconcileListing}. */
    private static VmCounts vmCounts(ResultSet rs, int first) throws SQLException {
        return new VmCounts(rs.getLong(first), rs.getLong(first + 1), rs.getLong(first + 2), rs.getLong(first + 3),
                rs.getLong(first + 4));
    }
}
