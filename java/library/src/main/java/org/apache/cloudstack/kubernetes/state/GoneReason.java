// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/** Why the owner of an operation is provably gone; each with its native code ({@code NativeCodes.GONE_*}). */
public enum GoneReason {
    /** {@code mshost} shows the owner's server Down. */
    OWNER_DOWN(NativeCodes.GONE_OWNER_DOWN),
    /** The owner's msid now runs with another runid: the process restarted. */
    OWNER_RESTARTED(NativeCodes.GONE_OWNER_RESTARTED),
    /** No heartbeat for more than {@link ClusterStateMachine#heartbeatThresholdMillis()}, in database time. */
    HEARTBEAT_STALE(NativeCodes.GONE_HEARTBEAT_STALE),
    /** No owner recorded (an older server wrote the row), no job for it and no job of unknown cluster. */
    NO_OWNER_NO_JOB(NativeCodes.GONE_NO_OWNER_NO_JOB),
    /** The owner's server is up but the owner's own job row has ended: it ended without releasing. */
    OWNER_JOB_ENDED(NativeCodes.GONE_OWNER_JOB_ENDED);

    private final int code;

    GoneReason(int code) {
        this.code = code;
    }

    /** Why the scanner may recover the cluster, in words (scan and explain print it). */
    public String description() {
        return switch (this) {
            case OWNER_DOWN -> "the management server that owns its operation is Down";
            case OWNER_RESTARTED -> "the management server that owns its operation has restarted since";
            case HEARTBEAT_STALE -> "the management server that owns its operation has sent no heartbeat for longer"
                    + " than the threshold";
            case NO_OWNER_NO_JOB -> "no IN_PROGRESS job names it, and no job of unknown cluster runs";
            case OWNER_JOB_ENDED -> "the job of its operation has ended, but the operation never released the cluster";
        };
    }

    /** The reason of a native code, or null. */
    static GoneReason ofCode(int code) {
        for (GoneReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }
}
