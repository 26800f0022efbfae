package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.List;
import java.util.Objects;

/**
 * What an orphan-recovery pass would do now, read by the pass's own reads and planned by its own
 * native plan, with nothing written ({@link StatusScanner#previewOrphanRecovery()}).
 *
 * @param kind          as {@link RecoveryResult.Kind}; RECOVERED means "would recover {@code planned}"
 * @param candidateIds  clusters read in an operation's state (fenced mode: or held)
 * @param planned       the clusters the pass would fail (or, fenced and held at rest, release)
 * @param unknownJobIds WAITED only: the IN_PROGRESS cluster jobs whose cluster is unknown
 */
public record RecoveryPreview<S extends Enum<S>>(RecoveryResult.Kind kind, List<Long> candidateIds,
        List<Planned<S>> planned, List<Long> unknownJobIds) {

    /** One cluster the pass would move from {@code from} to {@code to}, and why it may. */
    public record Planned<S extends Enum<S>>(long clusterId, S from, S to, String reason) {
    }

    public RecoveryPreview {
        Objects.requireNonNull(kind, "kind");
        candidateIds = List.copyOf(candidateIds);
        planned = List.copyOf(planned);
        unknownJobIds = List.copyOf(unknownJobIds);
    }

    /** The planned recovery of this cluster, or null. */
    public Planned<S> plannedFor(long clusterId) {
        return planned.stream().filter(p -> p.clusterId() == clusterId).findFirst().orElse(null);
    }
}
