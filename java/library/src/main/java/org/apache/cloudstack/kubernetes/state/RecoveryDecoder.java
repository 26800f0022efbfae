package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.List;

/** Decodes the native recovery plan: [kind, n, n x (clusterId, packed update)]. */
final class RecoveryDecoder {

    private RecoveryDecoder() {
    }

    static <S extends Enum<S>, E extends Enum<E>> RecoveryPlan<S, E> decode(ClusterStateMachine<S, E> machine, long[] r) {
        RecoveryPlan.Kind kind = r == null || r.length < 2 ? null : kind(r[0]);
        if (kind == null || r[1] < 0 || r.length != 2 + 2 * r[1]) {
            throw new CksStateNativeException("cks-state native library returned a malformed recovery plan of length "
                    + (r == null ? "null" : String.valueOf(r.length)));
        }
        int n = (int) r[1];
        List<ClusterRecovery<S, E>> recoveries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long id = r[2 + 2 * i];
            int packed = (int) r[3 + 2 * i];
            if ((packed & 0xFF) != NativeCodes.COMPLETION_COMPARE_AND_SET) {
                throw ClusterStateMachine.unexpected("recovery update", packed);
            }
            StateUpdate<S, E> update = machine.update((packed >>> 8) & 0xFF, (packed >>> 16) & 0xFF, (packed >>> 24) & 0xFF);
            if (update != null) { // else the host cannot express it: leave that cluster alone
                recoveries.add(new ClusterRecovery<>(id, update));
            }
        }
        return new RecoveryPlan<>(kind, recoveries);
    }

    /** The plan kind of a native code, or null. */
    static RecoveryPlan.Kind kind(long code) {
        if (code == NativeCodes.RECOVERY_SKIP) {
            return RecoveryPlan.Kind.SKIP;
        }
        if (code == NativeCodes.RECOVERY_WAIT) {
            return RecoveryPlan.Kind.WAIT;
        }
        return code == NativeCodes.RECOVERY_RECOVER ? RecoveryPlan.Kind.RECOVER : null;
    }
}
