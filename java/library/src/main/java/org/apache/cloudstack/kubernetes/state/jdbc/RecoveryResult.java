package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.List;
import java.util.Objects;

/**
 * What one orphan-recovery pass of {@link KubernetesClusterStatusScanner} did.
 *
 * @param kind             the pass's outcome
 * @param candidateIds     clusters read in an operation's state (CloudManaged, not removed)
 * @param recoveredIds     clusters this pass failed (compare-and-set hit)
 * @param missedIds        clusters whose compare-and-set missed: their operation ended (or another
 *                         started) between the read and the update; left alone
 * @param unknownJobIds    WAITED only: the IN_PROGRESS cluster jobs whose cluster is unknown
 * @param statements       SQL statements this pass executed
 */
public record RecoveryResult(Kind kind, List<Long> candidateIds, List<Long> recoveredIds, List<Long> missedIds,
        List<Long> unknownJobIds, int statements) {

    /** The outcomes of a pass. */
    public enum Kind {
        /** No cluster in an operation's state: the job lookup was skipped. */
        NO_CANDIDATE,
        /** Every candidate has an IN_PROGRESS job: nothing to recover. */
        NOTHING_TO_RECOVER,
        /** An IN_PROGRESS cluster job of unknown cluster exists: recovered nothing this pass. */
        WAITED,
        /** Orphans were failed by compare-and-set (see recoveredIds / missedIds). */
        RECOVERED
    }

    public RecoveryResult {
        Objects.requireNonNull(kind, "kind");
        candidateIds = List.copyOf(candidateIds);
        recoveredIds = List.copyOf(recoveredIds);
        missedIds = List.copyOf(missedIds);
        unknownJobIds = List.copyOf(unknownJobIds);
    }

    /** True when the pass skipped the async_job lookup. */
    public boolean jobLookupSkipped() {
        return kind == Kind.NO_CANDIDATE;
    }
}
