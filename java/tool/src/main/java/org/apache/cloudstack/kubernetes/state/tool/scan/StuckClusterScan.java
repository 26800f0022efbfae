// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.scan;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.GoneReason;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;
import org.apache.cloudstack.kubernetes.state.jdbc.ScanListener;
import org.apache.cloudstack.kubernetes.state.sql.InChunks;
import org.apache.cloudstack.kubernetes.state.value.Owner;

/**
 * The operator's way out for clusters stuck today: one pass of the status scanner itself, in the
 * mode the management servers run, planned without writing (dry run) or applied. So it recovers
 * exactly what the scanner would: only CloudManaged, not removed clusters in an operation's state
 * with no live operation; any job of unknown cluster makes it wait.
 */
public final class StuckClusterScan<S extends Enum<S>, E extends Enum<E>> {
    /** One cluster the scanner recovers (would recover), and why; {@code applied} is null in a dry run. */
    public record Finding(long id, String uuid, String name, String state, String to, GoneReason reason,
            Boolean applied) {
    }

    /**
     * The outcome: waiting (an unknown-cluster job is in progress; {@code encryptedJobIds}: those whose
     * job_cmd_info is ciphertext) or the recoveries; {@code candidates}: how many clusters are in an
     * operation's state (those not recovered have a live operation).
     */
    public record Result(boolean waiting, List<Long> unknownJobIds, List<Long> encryptedJobIds, List<Finding> recoveries,
            int candidates) {
        public Result {
            unknownJobIds = List.copyOf(unknownJobIds);
            encryptedJobIds = List.copyOf(encryptedJobIds);
            recoveries = List.copyOf(recoveries);
        }
    }

    /** The tool's scanner writes as no management server (its pass holds nothing between steps). */
    private static final Owner TOOL = Owner.of(0, 0);

    private final ConnectionSource source;
    private final ClusterStateScanner<S, E> scanner;

    /** {@code machine}: with the deployment's heartbeat threshold (fenced recovery judges owners by it). */
    public StuckClusterScan(ClusterStateMachine<S, E> machine, ConnectionSource source, StateMode mode) {
        this.source = source;
        this.scanner = new ClusterStateScanner<>(new KubernetesClusterStateDao<>(machine.withMode(mode),
                source), () -> TOOL);
    }

    /** The pass: applied, or planned without writing. */
    public Result run(boolean apply) throws SQLException {
        return result(scanner.orphanRecovery(apply));
    }

    /** The pass planned, writing nothing, as it would run once {@code endedJobs} have ended (failed). */
    public Result previewAfter(Set<Long> endedJobs) throws SQLException {
        return result(scanner.orphanRecoveryPreviewAfter(endedJobs));
    }

    /** Observes the applying pass: each compare-and-set as it commits; a listener that throws stops it there. */
    public void setListener(ScanListener listener) {
        scanner.setListener(listener);
    }

    /** The uuid and name of one cluster, for a line printed as its recovery commits. */
    public String[] uuidAndName(long clusterId) throws SQLException {
        return names(List.of(clusterId)).getOrDefault(clusterId, new String[2]);
    }

    private Result result(RecoveryResult<S> report) throws SQLException {
        if (report.kind() == RecoveryResult.Kind.WAITED) {
            return new Result(true, report.unknownJobIds(), report.encryptedJobIds(), List.of(), report.candidateIds().size());
        }
        Map<Long, String[]> names = names(report.planned().stream().map(RecoveryResult.Planned::clusterId).toList());
        List<Finding> findings = new ArrayList<>();
        for (RecoveryResult.Planned<S> p : report.planned()) {
            String[] uuidAndName = names.getOrDefault(p.clusterId(), new String[2]);
            findings.add(new Finding(p.clusterId(), uuidAndName[0], uuidAndName[1], p.from().name(), p.to().name(),
                    p.reason(), p.hit()));
        }
        return new Result(false, List.of(), List.of(), findings, report.candidateIds().size());
    }

    /** The uuid and name of each cluster, for the report. */
    private Map<Long, String[]> names(List<Long> ids) throws SQLException {
        Map<Long, String[]> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        try (Connection c = source.open()) {
            InChunks.query(c, "SELECT id, uuid, name FROM kubernetes_cluster WHERE id IN ", "", ids, InChunks.LONGS,
                    rs -> out.put(rs.getLong(1), new String[] {rs.getString(2), rs.getString(3)}));
        }
        return out;
    }
}
