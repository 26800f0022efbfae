// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.GoneReason;
import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * What one orphan-recovery pass of {@link ClusterStateScanner} did, or, in a preview
 * ({@code applied} false), would do: what it read, what its native plan said and what each write did.
 *
 * @param kind          the pass's outcome (in a preview RECOVERED means "would recover")
 * @param candidateIds  clusters read in an operation's state (CloudManaged, not removed; fenced: or held)
 * @param planned       the clusters the plan fails (fenced, held at rest: releases), in candidate order
 * @param unknownJobIds WAITED only: the IN_PROGRESS cluster jobs whose cluster is unknown
 * @param encryptedJobIds WAITED only: those of them whose job_cmd_info is ciphertext (CloudStack's database
 *                      encryption, 4.22.1.1+), so that no cluster could be read from it
 * @param statements    SQL statements this pass executed
 * @param applied       false for a preview: nothing was written
 */
public record RecoveryResult<S extends Enum<S>>(Kind kind, List<Long> candidateIds, List<Planned<S>> planned,
        List<Long> unknownJobIds, List<Long> encryptedJobIds, int statements, boolean applied) {

    /** The outcomes of a pass. */
    public enum Kind {
        /** No candidate: the job lookup was skipped. */
        NO_CANDIDATE,
        /** Every candidate has an IN_PROGRESS job (fenced: or a live owner): nothing to recover. */
        NOTHING_TO_RECOVER,
        /** An IN_PROGRESS cluster job of unknown cluster exists: recovered nothing this pass. */
        WAITED,
        /** Orphans were failed by compare-and-set (see recoveredIds / missedIds). */
        RECOVERED
    }

    /**
     * One cluster the plan moves from {@code from} to {@code to}, and why it may; {@code hit}: null in
     * a preview, else whether the compare-and-set changed the row (false: the cluster moved on).
     */
    public record Planned<S extends Enum<S>>(long clusterId, S from, S to, GoneReason reason, Boolean hit) {
        public Planned {
            Arguments.required(reason, "reason");
        }
    }

    public RecoveryResult {
        Arguments.required(kind, "kind");
        candidateIds = List.copyOf(candidateIds);
        planned = List.copyOf(planned);
        unknownJobIds = List.copyOf(unknownJobIds);
        encryptedJobIds = List.copyOf(encryptedJobIds);
    }

    /** Clusters this pass failed (compare-and-set hit). */
    public List<Long> recoveredIds() {
        return planned.stream().filter(p -> Boolean.TRUE.equals(p.hit())).map(Planned::clusterId).toList();
    }

    /**
     * Clusters whose compare-and-set missed: their operation ended (or another started) between the
     * read and the update; left alone.
     */
    public List<Long> missedIds() {
        return planned.stream().filter(p -> Boolean.FALSE.equals(p.hit())).map(Planned::clusterId).toList();
    }

    /** The plan for this cluster, or null. */
    public Planned<S> plannedFor(long clusterId) {
        return planned.stream().filter(p -> p.clusterId() == clusterId).findFirst().orElse(null);
    }

    /** True when the pass skipped the async_job lookup. */
    public boolean jobLookupSkipped() {
        return kind == Kind.NO_CANDIDATE;
    }
}
