package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.List;
import java.util.Objects;

/**
 * An orphan-recovery pass in detail ({@link KubernetesClusterStatusScanner#orphanRecovery(boolean)}): what it read,
 * what its native plan said, and, when it applied the plan, what each compare-and-set did.
 *
 * @param kind          as {@link RecoveryResult.Kind}; in a preview RECOVERED means "would recover"
 * @param candidateIds  clusters read in an operation's state (fenced mode: or held)
 * @param planned       the clusters the pass fails (or, fenced and held at rest, releases)
 * @param unknownJobIds WAITED only: the IN_PROGRESS cluster jobs whose cluster is unknown
 * @param applied       false for a preview: nothing was written
 */
public record RecoveryReport<S extends Enum<S>>(RecoveryResult.Kind kind, List<Long> candidateIds,
        List<Planned<S>> planned, List<Long> unknownJobIds, boolean applied) {

    /**
     * One cluster the plan moves from {@code from} to {@code to}, and why it may; {@code hit}: null in
     * a preview, else whether the compare-and-set changed the row (false: the cluster moved on).
     */
    public record Planned<S extends Enum<S>>(long clusterId, S from, S to, String reason, Boolean hit) {
    }

    public RecoveryReport {
        Objects.requireNonNull(kind, "kind");
        candidateIds = List.copyOf(candidateIds);
        planned = List.copyOf(planned);
        unknownJobIds = List.copyOf(unknownJobIds);
    }

    /** The plan for this cluster, or null. */
    public Planned<S> plannedFor(long clusterId) {
        return planned.stream().filter(p -> p.clusterId() == clusterId).findFirst().orElse(null);
    }
}
