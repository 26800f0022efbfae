package org.apache.cloudstack.kubernetes.state;

/**
 * The native methods of libcks_state, one per core decision. This class is the JNI contract:
 * every argument and result is a primitive, a primitive array or (cold paths only) a String.
 *
 * <p>Codes: states, events and operations use the codes of {@code spec/state-machine.tsv};
 * profiles: 0 upstream, 1 alert-scaling; "none" is -1. An unknown code, a null array or arrays
 * of different lengths throw {@link IllegalArgumentException} naming the argument; a Rust panic
 * throws {@link CksStateNativeException} carrying the panic message.
 *
 * <p>Packed results (all fields unsigned bytes, "none" state/event = {@code NativeCodes.PACKED_NONE});
 * every kind is a {@link NativeCodes} constant, one table with the Rust side (spec/state-machine.tsv):
 * <ul>
 *   <li>entry decision (int): bits 0-7 kind ({@code ENTRY_*}), 8-15 event, 16-23 target state;</li>
 *   <li>state update (int): bits 0-7 kind, 8-15 expected state, 16-23 event, 24-31 target;</li>
 *   <li>reconcile plan (long): bits 0-7 step count (0..2), then each step's
 *       (expected, event, target) in 24 bits starting at bit 8 and bit 32.</li>
 * </ul>
 */
final class NativeBridge {
    /** Bumped whenever a signature or an encoding of this class changes. */
    static final int ABI_VERSION = 3;

    static final int NONE = NativeCodes.ARGUMENT_NONE;

    private NativeBridge() {
    }

    static native int abiVersion();

    /** Names by code for NativeCodes.NAMES_*: array index = code. Cold. */
    static native String[] names(int kind);

    /** Transition rows of a profile as triples (from, event, to), in file order. Cold. */
    static native int[] transitions(int profile);

    /** States the status scanner recovers (orphan candidates). Cold. */
    static native int[] orphanStates();

    /** Next state code, or -1 when the profile has no transition. */
    static native int nextState(int profile, int state, int event);

    /** Packed entry decision for an operation starting from a state. */
    static native int decideEntry(int profile, int operation, int state);

    /** The refusal message naming the operation and the state. Cold. */
    static native String refusalReason(int operation, int state);

    /** The refusal message of a scale of this kind from this state. Cold. */
    static native String scaleRefusalReason(int scaleKind, int state);

    /**
     * Scaling: may a scale operation of this kind start from this state? Packed state update:
     * kind {@code SCALE_ENTER} (expected, event, target), {@code SCALE_SETTINGS_ONLY} (Created), {@code SCALE_REFUSE}.
     * scaleKind: 0 scale up, 1 scale down, 2 offering change only, 3 autoscale.
     */
    static native int scaleBegin(int profile, int scaleKind, int startedFrom);

    /**
     * Scaling: what one scaling step does. entered = state this operation moved the cluster to,
     * or -1. Packed state update: kind {@code SCALE_*}; FAIL_TAKEN_SINCE carries the current state in
     * the target field; REFUSE: the kind cannot start from startedFrom.
     */
    static native int scaleStep(int profile, int scaleKind, int startedFrom, int entered, int current);

    /**
     * Completion: movedTo = state the operation moved the cluster to, or -1 when it proceeded
     * without a change. outcome: 0 succeeded, 1 failed, 2 create failed. Packed state update:
     * kind {@code COMPLETION_COMPARE_AND_SET} (expected, event, target) or {@code COMPLETION_LEAVE}.
     */
    static native int complete(int profile, int movedTo, int outcome);

    /**
     * Orphan recovery. clusterIds/clusterStates are the candidates as read; jobClusterIds are the
     * IN_PROGRESS cluster jobs, -1 = unknown cluster.
     * Result: [kind ({@code RECOVERY_*}), n, then n × (clusterId, packed update)].
     */
    static native long[] planRecovery(long[] clusterIds, int[] clusterStates, long[] jobClusterIds);

    /**
     * Alert reconciliation for a cluster listed in a state with a VM summary
     * (0 all stopped, 1 all running and healthy, 2 mixed, 3 incomplete). Packed reconcile plan.
     */
    static native long planReconcile(int profile, int listedState, int vmSummary);

    /** Mirrors the Java logger's level into log::set_max_level: 0 off, 1 error .. 5 trace. */
    static native void setLogLevel(int level);
}
