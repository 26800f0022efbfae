package org.apache.cloudstack.kubernetes.state;

import java.util.List;
import java.util.Objects;

/**
 * A fenced recovery pass's verdict: SKIP (no candidate), WAIT (nothing to recover while an
 * ownerless candidate waits on an IN_PROGRESS job of unknown cluster), RECOVER (these, maybe none).
 */
public record FencedRecoveryPlan<S extends Enum<S>, E extends Enum<E>>(RecoveryPlan.Kind kind,
        List<FencedRecovery<S, E>> recoveries) {
    public FencedRecoveryPlan {
        Objects.requireNonNull(kind, "kind");
        recoveries = List.copyOf(recoveries);
    }
}
