// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.List;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.Owner;

/** The recovery pass's inputs as {@link NativeBridge#planRecovery} takes them: one array per concern. */
final class RecoveryColumns {
    private RecoveryColumns() {
    }

    /** The candidates: {@code CANDIDATE_WIDTH_FENCED} longs each in fenced mode, {@code CANDIDATE_WIDTH_COMPAT} in compat. */
    static <S extends Enum<S>> long[] candidates(List<ClusterSnapshot<S>> candidates, EnumBinding<S> binding,
            boolean fenced) {
        int stride = fenced ? NativeCodes.CANDIDATE_WIDTH_FENCED : NativeCodes.CANDIDATE_WIDTH_COMPAT;
        long[] out = new long[candidates.size() * stride];
        for (int i = 0; i < candidates.size(); i++) {
            ClusterSnapshot<S> c = candidates.get(i);
            if (c == null) {
                throw new IllegalArgumentException("candidates[" + i + "] is null");
            }
            int at = i * stride;
            int state = binding.codeOrNone(c.state());
            if (state < 0) { // the argument's name is built only for the error
                throw binding.foreign(c.state(), "candidates[" + i + "].state");
            }
            out[at + NativeCodes.CANDIDATE_ID] = c.id();
            out[at + NativeCodes.CANDIDATE_STATE] = state;
            if (fenced) {
                Owner o = c.row().owner();
                out[at + NativeCodes.CANDIDATE_VERSION] = c.row().version();
                out[at + NativeCodes.CANDIDATE_OWNER_MSID] = o == null ? -1 : o.msid();
                out[at + NativeCodes.CANDIDATE_OWNER_RUNID] = o == null ? -1 : o.runid();
                out[at + NativeCodes.CANDIDATE_OWNER_JOB] = o == null ? -1 : o.jobId();
            }
        }
        return out;
    }

    /** The mshost rows, {@code HOST_ROW_LENGTH} longs each; null for null (not read yet). */
    static long[] hosts(List<MsHost> hosts) {
        if (hosts == null) {
            return null;
        }
        int stride = NativeCodes.HOST_ROW_LENGTH;
        long[] out = new long[hosts.size() * stride];
        for (int i = 0; i < hosts.size(); i++) {
            MsHost host = hosts.get(i);
            if (host == null) {
                throw new IllegalArgumentException("hosts[" + i + "] is null");
            }
            int at = i * stride;
            out[at + NativeCodes.HOST_ROW_MSID] = host.msid();
            out[at + NativeCodes.HOST_ROW_RUNID] = host.runid();
            out[at + NativeCodes.HOST_ROW_STATUS] = host.status().code();
            out[at + NativeCodes.HOST_ROW_AGE] = Math.max(0, host.heartbeatAgeSeconds()); // "in the future" is fresh
        }
        return out;
    }
}
