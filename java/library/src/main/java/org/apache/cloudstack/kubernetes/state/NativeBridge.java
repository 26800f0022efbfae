// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

/**
 * The native methods of libcks_state, one per core decision. This class is the JNI contract:
 * every argument and result is a primitive, a primitive array or (cold paths only) a String.
 *
 * <p>Codes: states, events and operations use the codes of {@code spec/state-machine.tsv};
 * profiles: their {@code PROFILE_*} codes ({@link Profile}); "none" is -1. An unknown code, a null array or arrays
 * of different lengths throw {@link IllegalArgumentException} naming the argument; a Rust panic
 * throws {@link CksStateNativeException} carrying the panic message.
 *
 * <p>Packed results: every decision's write is a {@code long} in the one layout of
 * {@code spec/state-machine.tsv} ({@code field write ...}), read only by the generated
 * {@code NativeCodes.write*} readers: kind, event ({@code PACKED_NONE}: the state stays), target state
 * ({@code PACKED_NONE}: nothing to write), flags ({@code FLAG_OWNER}: the write stores the caller as
 * owner, else it releases the cluster; {@code FLAG_VERSIONED}: it compares the version and stores the
 * field {@code version}; {@code FLAG_MOVED}: the hold the operation keeps is moved to the target) and
 * the version. A take's hold is its target token. Every kind, mode and flag is a {@link NativeCodes}
 * constant. A version is a {@code long} in 0..{@code MAX_VERSION}; one that cannot be bumped any more is
 * an IllegalArgumentException naming {@code version}.
 */
final class NativeBridge {
    /** Bumped whenever a signature or an encoding of this class changes. */
    static final int ABI_VERSION = NativeCodes.ABI_VERSION;

    static final int NONE = NativeCodes.ARGUMENT_NONE;

    private NativeBridge() {
    }

    static native int abiVersion();

    /** Names by code for NativeCodes.NAMES_*: array index = code. Cold. */
    static native String[] names(int kind);

    /** Transition rows of a profile as triples (from, event, to), in file order. Cold. */
    static native int[] transitions(int profile);

    /**
     * The table of CloudStack release {@code major.minor.patch.build} (each 0..65535), layout
     * {@code release}: the profile's code and {@code RELEASE_FIT_*}. Cold.
     */
    static native long profileForRelease(int major, int minor, int patch, int build);

    /** States the status scanner recovers (orphan candidates). Cold. */
    static native int[] orphanStates();

    /** Next state code, or -1 when the profile has no transition. */
    static native int nextState(int profile, int state, int event);

    /** The compat entry of an operation on a row in a state (kinds {@code ENTRY_*}), precomputed. */
    static native long decideEntry(int profile, int operation, int state);

    /** The refusal message naming the operation and the state. Cold. */
    static native String refusalReason(int operation, int state);

    /**
     * The message of a failed scale of this kind started from {@code startedState}: refused from it
     * ({@code nowState} -1), or taken since by another operation (the cluster is now in
     * {@code nowState}). Cold.
     */
    static native String scaleMessage(int scaleKind, int startedState, int nowState);

    /** [MAX_VERSION, DEFAULT_HEARTBEAT_THRESHOLD_MILLIS]: the fenced mode's limits. Cold. */
    static native long[] constants();

    // The decisions that write take the mode ({@code MODE_*}) and answer packed writes. A compat
    // row's version and held flag are not read.

    /** Entry of an operation on a row (state, version, held). Kinds {@code ENTRY_*}. */
    static native long entry(int mode, int profile, int operation, int state, long version, boolean held);

    /**
     * Completion of a hold (holdState -1: none, then {@code COMPLETION_LEAVE}; movedTo -1: it did not
     * move the state). Else {@code COMPLETION_COMPARE_AND_SET} from the hold's token, or LEAVE.
     */
    static native long completion(int mode, int profile, int holdState, long holdVersion, int movedTo, int outcome);

    /**
     * Next step of a scale started from (startedState, startedVersion) that holds (holdState,
     * holdVersion, holdMovedTo) after earlier steps (holdState -1: nothing yet), the row now read as
     * (currentState, currentVersion, currentHeld). Kinds {@code SCALE_*}; FAIL_TAKEN_SINCE carries
     * the current state in the target field. scaleKind: a {@code SCALE_KIND_*} code.
     */
    static native long scaleStep(int mode, int profile, int scaleKind, int startedState, long startedVersion,
            int holdState, long holdVersion, int holdMovedTo, int currentState, long currentVersion,
            boolean currentHeld);

    /**
     * The VMs of a cluster listed in listedState from what the scanner counted (the nodes it must
     * have, mapped VMs, those that exist, running, stopped): a {@code VM_SUMMARY_*} code, or
     * {@code VM_ANSWER_PROBE_HEALTH}: probe the cluster's health and ask again with its {@code HEALTH_*} code.
     */
    static native int vmSummary(int listedState, long expected, long mapped, long present, long running, long stopped,
            int health);

    /** Alert reconciliation / fault detection of a listed row: its steps (0..2) in order, each a packed write. */
    static native long[] reconcile(int mode, int profile, int listedState, long listedVersion, boolean listedHeld,
            int vmSummary);

    /**
     * Recovery pass; a server whose heartbeat is older than heartbeatThresholdMillis is gone.
     * candidates: {@code CANDIDATE_WIDTH_FENCED} longs per row ({@code CANDIDATE_*}: id, state code, then
     * version, owner msid (-1 not held), runid, job id (-1 none), read in fenced mode only);
     * IN_PROGRESS jobs: ids and cluster ids (-1 unknown), the ids read only when the core asks for owner
     * evidence; endedJobIds (owners' jobs that exist and are no longer IN_PROGRESS) and hosts
     * ({@code HOST_ROW_LENGTH} longs per mshost row: msid, runid, status {@code HOST_*}, heartbeat age
     * in database seconds): null until the answer asked for them. Result: {@code RECOVERY_HEADER_*}
     * (kind {@code RECOVERY_*}, count), then per recovery {@code RECOVERY_ENTRY_*}: cluster id,
     * expected token ({@code field token}), packed write whose kind is the reason ({@code GONE_*});
     * kind EVIDENCE: then the owners' job ids whose status the plan needs.
     */
    static native long[] planRecovery(int mode, int profile, long heartbeatThresholdMillis, long[] candidates,
            long[] jobIds, long[] jobClusterIds, long[] endedJobIds, long[] hosts);

    /** Mirrors the Java logger's level into log::set_max_level: 0 off, 1 error .. 5 trace. */
    static native void setLogLevel(int level);
}
