package org.apache.cloudstack.kubernetes.state;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.internal.ClusterSnapshot;

/**
 * The recovery candidates as the primitive columns {@link NativeBridge#planRecovery} takes. The
 * fence columns are filled only for a fenced pass: compat reads none, and at 100k candidates four
 * more arrays cost the pass more than its planning.
 */
final class RecoveryColumns<S extends Enum<S>> {
    final long[] ids;
    final int[] states;
    final long[] versions;
    final long[] msids;
    final long[] runids;
    final long[] ownerJobs;

    private RecoveryColumns(int n, int fenced) {
        ids = new long[n];
        states = new int[n];
        versions = new long[fenced];
        msids = new long[fenced];
        runids = new long[fenced];
        ownerJobs = new long[fenced];
    }

    static <S extends Enum<S>> RecoveryColumns<S> of(List<ClusterSnapshot<S>> candidates, EnumBinding<S> binding,
            boolean fenced) {
        int n = candidates.size();
        RecoveryColumns<S> out = new RecoveryColumns<>(n, fenced ? n : 0);
        for (int i = 0; i < n; i++) {
            ClusterSnapshot<S> c = candidates.get(i);
            if (c == null) {
                throw new IllegalArgumentException("candidates[" + i + "] is null");
            }
            out.ids[i] = c.id();
            out.states[i] = binding.codeOrNone(c.state());
            if (out.states[i] < 0) { // the argument's name is built only for the error
                throw binding.foreign(c.state(), "candidates[" + i + "].state");
            }
            if (fenced) {
                out.versions[i] = c.row().version();
                Owner o = c.row().owner();
                out.msids[i] = o == null ? -1 : o.msid();
                out.runids[i] = o == null ? -1 : o.runid();
                out.ownerJobs[i] = o == null ? -1 : o.jobId();
            }
        }
        return out;
    }

    /** One native recovery pass over these candidates, the jobs and the hosts (packed plan). */
    long[] plan(int mode, int profile, long heartbeatThresholdMillis, long[] jobIds, long[] jobClusterIds,
            long[] endedJobIds, List<MsHost> hosts) {
        HostColumns h = HostColumns.of(hosts);
        return NativeBridge.planRecovery(mode, profile, heartbeatThresholdMillis, ids, states, versions, msids, runids,
                ownerJobs, jobIds, jobClusterIds, endedJobIds, h.msids, h.runids, h.statuses, h.ages);
    }
}
