package org.apache.cloudstack.kubernetes.state;

/**
 * The native methods of the fenced mode ({@code src/fencing.rs}), the same contract as
 * {@link NativeBridge}: primitives and primitive arrays only, codes of {@code spec/state-machine.tsv},
 * "none" = -1, IllegalArgumentException naming a bad argument, CksStateNativeException for a panic.
 * A version is a {@code long} in 0..{@code MAX_VERSION}; a version that cannot be bumped any more
 * is reported as an IllegalArgumentException naming {@code version}.
 *
 * <p>Packed write (int): bits 0-7 kind (a {@link NativeCodes} constant, the same table as
 * {@link NativeBridge}'s), 8-15 event ({@code PACKED_NONE}: the state stays), 16-23 target state,
 * 24-31 flags ({@code FLAG_OWNER}: the write stores the caller as owner, else it releases the
 * cluster). The target version is always the expected version + 1 (the core's invariant).
 */
final class FencedNativeBridge {
    private FencedNativeBridge() {
    }

    /** [MAX_VERSION, OWNER_GONE_AFTER_SECS]. Cold. */
    static native long[] constants();

    /**
     * Entry of an operation on a row read as (state, version, held). Kinds {@code ENTRY_*}:
     * TRANSITION and PROCEED take the cluster (PROCEED keeps its state), NOTHING_TO_DO, REFUSE, BUSY.
     */
    static native int entry(int profile, int operation, int state, long version, boolean held);

    /**
     * Completion of a hold (holdState -1: none, then {@code COMPLETION_LEAVE}; movedTo -1: it only
     * took the cluster). Else {@code COMPLETION_COMPARE_AND_SET}, a write that releases.
     */
    static native int completion(int profile, int holdState, long holdVersion, int movedTo, int outcome);

    /**
     * Next step of a scale started from (startedState, startedVersion) that holds (holdState,
     * holdVersion, holdMovedTo) after earlier steps (holdState -1: nothing yet). Kinds {@code SCALE_*}:
     * ENTER (a take that moves the state), SETTINGS_ONLY (a take that keeps it: Created),
     * ALREADY_ENTERED, FAIL_TAKEN_SINCE (current state in the target field), BUSY, REFUSE.
     * scaleKind: the ScaleKind ordinal.
     */
    static native int scaleStep(int profile, int scaleKind, int startedState, long startedVersion, int holdState,
            long holdVersion, int holdMovedTo, int currentState, long currentVersion, boolean currentHeld);

    /**
     * Alert reconciliation / fault detection of a listed row: bits 0-7 step count (0..2), then per
     * step 24 bits from bit 8 + 24 i: event, target state, flags (bit 0: the scanner holds it).
     */
    static native long reconcile(int profile, int listedState, long listedVersion, boolean listedHeld, int vmSummary);

    /**
     * Recovery pass. Candidates: ids, states, versions, owner msid (-1 not held), owner runid, owner
     * job id (-1 none); IN_PROGRESS jobs: ids and cluster ids (-1 unknown); ended jobs: ids of owners'
     * job rows that exist and are no longer IN_PROGRESS; mshost rows: msid,
     * runid, status ({@code HOST_*}), heartbeat age in database seconds. Result: [kind ({@code RECOVERY_*}),
     * n, n x (cluster id, expected | event << 8 | target << 16 | reason << 24, expected version)],
     * reason {@code GONE_*}.
     */
    static native long[] planRecovery(int profile, long[] clusterIds, int[] clusterStates, long[] clusterVersions,
            long[] ownerMsids, long[] ownerRunids, long[] ownerJobIds, long[] jobIds, long[] jobClusterIds,
            long[] endedJobIds, long[] hostMsids, long[] hostRunids, int[] hostStatuses, long[] hostAges);
}
