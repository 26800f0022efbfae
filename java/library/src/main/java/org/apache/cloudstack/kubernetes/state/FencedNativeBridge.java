package org.apache.cloudstack.kubernetes.state;

/**
 * The native methods of the fenced mode ({@code src/fencing.rs}), the same contract as
 * {@link NativeBridge}: primitives and primitive arrays only, codes of {@code spec/state-machine.tsv},
 * "none" = -1, IllegalArgumentException naming a bad argument, CksStateNativeException for a panic.
 * A version is a {@code long} in 0..{@code MAX_VERSION}; a version that cannot be bumped any more
 * is reported as an IllegalArgumentException naming {@code version}.
 *
 * <p>Packed write (int): bits 0-7 kind, 8-15 event (0xFF: the state stays), 16-23 target state,
 * 24-31 flags (bit 0: the write stores the caller as owner, else it releases the cluster). The
 * target version is always the expected version + 1 (the core's invariant).
 */
final class FencedNativeBridge {
    static final int FLAG_OWNER = 1;

    private FencedNativeBridge() {
    }

    /** [MAX_VERSION, OWNER_GONE_AFTER_SECS]. Cold. */
    static native long[] constants();

    /** Entry of an operation on a row read as (state, version, held). Kinds: 0 take, 1 nothing to do, 2 refuse, 3 busy. */
    static native int entry(int profile, int operation, int state, long version, boolean held);

    /** Completion of a hold (movedTo -1: it only took the cluster). Kind 0, always a write that releases. */
    static native int completion(int profile, int holdState, long holdVersion, int movedTo, int outcome);

    /**
     * Next step of a scale that holds nothing yet. Kinds: 0 take, 2 fail taken since (current
     * state in the target field), 3 busy, 4 refuse. scaleKind: the ScaleKind ordinal.
     */
    static native int scaleStep(int profile, int scaleKind, int startedState, long startedVersion, int currentState,
            long currentVersion, boolean currentHeld);

    /**
     * Alert reconciliation / fault detection of a listed row: bits 0-7 step count (0..2), then per
     * step 24 bits from bit 8 + 24 i: event, target state, flags (bit 0: the scanner holds it).
     */
    static native long reconcile(int profile, int listedState, long listedVersion, boolean listedHeld, int vmSummary);

    /**
     * Recovery pass. Candidates: ids, states, versions, owner msid (-1 not held), owner runid, owner
     * job id (-1 none); IN_PROGRESS jobs: ids and cluster ids (-1 unknown); ended jobs: ids of owners'
     * job rows that exist and are no longer IN_PROGRESS; mshost rows: msid,
     * runid, status (0 Up, 1 Down, 2 other), heartbeat age in database seconds. Result:
     * [n, n x (cluster id, expected | event << 8 | target << 16 | reason << 24, expected version)],
     * reason 0 owner down, 1 owner restarted, 2 heartbeat stale, 3 no owner and no job, 4 owner's job ended.
     */
    static native long[] planRecovery(int profile, long[] clusterIds, int[] clusterStates, long[] clusterVersions,
            long[] ownerMsids, long[] ownerRunids, long[] ownerJobIds, long[] jobIds, long[] jobClusterIds,
            long[] endedJobIds, long[] hostMsids, long[] hostRunids, int[] hostStatuses, long[] hostAges);
}
