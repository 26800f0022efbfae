// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.apache.cloudstack.kubernetes.state.value.Arguments.required;

import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;
import org.apache.cloudstack.kubernetes.state.value.VmCounts;

/**
 * The Kubernetes cluster state machine, answered by the native core in the host's own enums, for one
 * {@link StateMode}: every decision that writes (entry, scaling step, completion, Alert reconciliation,
 * orphan recovery) is the core's for that mode, as the {@link StateWrite} to apply. Java decides nothing.
 *
 * <p>Binds the host's {@code KubernetesCluster.State} / {@code Event} by constant name, in any order (only
 * the library's codes cross JNI). A host constant the library does not know is a bind error; a library name
 * the host lacks makes its rows unreachable: no next state, a refused entry or scale step, a completion that
 * leaves the state (fenced: only releases the cluster), a reconcile plan that stops before it, no recovery.
 *
 * <p>Immutable and thread-safe. A null argument or a constant of another enum class is an
 * {@link IllegalArgumentException} naming the argument.
 */
public final class ClusterStateMachine<S extends Enum<S>, E extends Enum<E>> {
    private final Profile profile;
    private final int profileCode;
    private final StateMode mode;
    private final int modeCode;
    private final EnumBinding<S> states;
    private final EnumBinding<E> events;
    private final PackedResults<S, E> results;
    private final Set<S> orphanStates;
    private final List<StateUpdate<S, E>> transitions;
    private final long maxVersion;
    private final long heartbeatThresholdMillis;
    private final EntryCache<S, E> decodedEntries;

    private ClusterStateMachine(Profile profile, StateMode mode, EnumBinding<S> states, EnumBinding<E> events) {
        this(profile, mode, states, events, new PackedResults<>(states, events), NativeBridge.constants(), null);
    }

    /** {@code base}'s tables and cache when given (a copy in another mode or threshold), else new ones. */
    private ClusterStateMachine(Profile profile, StateMode mode, EnumBinding<S> states, EnumBinding<E> events,
            PackedResults<S, E> results, long[] constants, ClusterStateMachine<S, E> base) {
        this.profile = profile;
        this.profileCode = profile.code();
        this.mode = mode;
        this.modeCode = mode.code();
        this.states = states;
        this.events = events;
        this.results = results;
        this.orphanStates = base != null ? base.orphanStates : HostTables.orphanStates(states);
        this.transitions = base != null ? base.transitions : HostTables.transitions(profileCode, results);
        this.maxVersion = constants[0];
        this.heartbeatThresholdMillis = constants[1];
        this.decodedEntries = base != null ? base.decodedEntries : new EntryCache<>(states.codeCount());
    }

    /** Binds the host's enums with the newest release's profile ({@link Profile#newestRelease()}), in compat mode. */
    public static <S extends Enum<S>, E extends Enum<E>> ClusterStateMachine<S, E> bind(Class<S> states, Class<E> events) {
        return bind(states, events, Profile.newestRelease(), StateMode.COMPAT);
    }

    /** Binds the host's enums with {@code profile}, in compat mode. */
    public static <S extends Enum<S>, E extends Enum<E>> ClusterStateMachine<S, E> bind(
            Class<S> states, Class<E> events, Profile profile) {
        return bind(states, events, profile, StateMode.COMPAT);
    }

    /** Binds the host's enums by constant name; IAE naming an unknown constant and its class. */
    public static <S extends Enum<S>, E extends Enum<E>> ClusterStateMachine<S, E> bind(
            Class<S> states, Class<E> events, Profile profile, StateMode mode) {
        required(profile, "profile");
        required(mode, "mode");
        required(states, "states class");
        required(events, "events class");
        NativeLibrary.load();
        return new ClusterStateMachine<>(profile, mode,
                EnumBinding.of(states, NativeLibrary.stateNames(), "state"),
                EnumBinding.of(events, NativeLibrary.eventNames(), "event"));
    }

    /**
     * Binds the host's enums with the profile whose table is the host's own: {@code hostTable} gives the host's
     * target of (state, event), null for none (CloudStack: {@code StateMachine2.getNextState}). Every pair is
     * compared; IllegalStateException naming the first difference from the closest profile when none matches.
     */
    public static <S extends Enum<S>, E extends Enum<E>> ClusterStateMachine<S, E> bindByTable(
            Class<S> states, Class<E> events, BiFunction<S, E, S> hostTable, StateMode mode) {
        required(hostTable, "hostTable");
        return HostTables.bindByTable(states, events, hostTable, mode);
    }

    /**
     * Where the host's table differs from this machine's, in the host's declaration order, each as
     * "Alert + OperationSucceeded: the host goes to Running, cks-state to none"; empty when they are the same.
     */
    public List<String> differencesFrom(BiFunction<S, E, S> hostTable) {
        required(hostTable, "hostTable");
        return HostTables.differences(this, hostTable);
    }

    /** The same binding and profile in another mode. */
    public ClusterStateMachine<S, E> withMode(StateMode other) {
        required(other, "mode");
        return other == mode ? this : new ClusterStateMachine<>(profile, other, states, events, results,
                new long[] {maxVersion, heartbeatThresholdMillis}, this);
    }

    /** Judging a server gone past {@code millis} of heartbeat age (cluster.heartbeat.threshold); shares the binding. */
    public ClusterStateMachine<S, E> withHeartbeatThreshold(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("heartbeat threshold " + millis + " ms is negative");
        }
        return millis == heartbeatThresholdMillis ? this : new ClusterStateMachine<>(profile, mode, states, events,
                results, new long[] {maxVersion, millis}, this);
    }

    public StateMode mode() {
        return mode;
    }

    public Profile profile() {
        return profile;
    }

    public Class<S> stateClass() {
        return states.type();
    }

    public Class<E> eventClass() {
        return events.type();
    }

    /** The host constant stored under {@code name} (the database column); IAE if there is none. */
    public S state(String name) {
        return states.named(name);
    }

    /** The state {@code event} moves {@code from} to, or null when there is no transition. Hot: no allocation. */
    public S nextState(S from, E event) {
        int f = states.code(from, "from");
        int e = events.code(event, "event");
        // Measured (JMH): reading the result array before the call and keeping it live across
        // it made this ~8 ns slower than these plain reads after the call.
        int to = NativeBridge.nextState(profileCode, f, e);
        return to < 0 ? null : states.constant(to);
    }

    /**
     * The entry rule: may {@code operation} start from {@code current}, and by which table row? The
     * same for both modes (a compat entry's decision). Hot: one native call, no allocation once warm.
     */
    public EntryDecision<S, E> decideEntry(Operation operation, S current) {
        required(operation, "operation");
        int s = states.code(current, "current");
        long packed = NativeBridge.decideEntry(profileCode, operation.ordinal(), s);
        EntryDecision<S, E> decision = decodedEntries.get(operation, s, packed);
        if (decision == null) {
            decision = results.entry(operation, s, packed, ClusterRow.of(current), null);
            decodedEntries.put(operation, s, packed, decision);
        }
        return decision;
    }

    /** The entry of {@code operation} by {@code me} (fenced stores it; compat: may be null) on {@code row}. */
    public EntryDecision<S, E> entry(Operation operation, ClusterRow<S> row, Owner me) {
        required(operation, "operation");
        required(row, "row");
        int s = states.code(row.state(), "row.state");
        long packed = NativeBridge.entry(modeCode, profileCode, operation.ordinal(), s, row.version(), row.isHeld());
        return results.entry(operation, s, packed, row, me);
    }

    /** Starts one compat scale or autoscale accepted with the cluster in {@code startedFrom}; compat mode only. */
    public ScaleOperation<S, E> beginScale(ScaleKind kind, S startedFrom) {
        requireCompat("beginScale(ScaleKind, S)", "beginScale(ScaleKind, Token, Owner)");
        required(startedFrom, "startedFrom");
        return beginScale(kind, Token.of(startedFrom), null);
    }

    /** Starts one scale or autoscale (one per worker) from the token read at acceptance, owned by {@code me}. */
    public ScaleOperation<S, E> beginScale(ScaleKind kind, Token<S> started, Owner me) {
        required(kind, "kind");
        required(started, "started");
        states.code(started.state(), "started.state");
        return new ScaleOperation<>(this, kind, started, me);
    }

    ScaleStep<S, E> scaleStep(ScaleOperation<S, E> op, ClusterRow<S> current) {
        Token<S> started = op.started();
        Hold<S> hold = op.hold();
        int s = states.code(started.state(), "started.state");
        int c = states.code(current.state(), "current.state");
        int h = hold == null ? NativeBridge.NONE : states.code(hold.token().state(), "hold.state");
        int m = codeOrNone(hold == null ? null : hold.movedTo(), "hold.movedTo");
        long packed = NativeBridge.scaleStep(modeCode, profileCode, op.kind().code(), s, started.version(), h,
                hold == null ? 0 : hold.token().version(), m, c, current.version(), current.isHeld());
        return results.scaleStep(packed, op, s, current);
    }

    /**
     * How an operation that holds {@code hold} ends with {@code outcome}: the write (compat: from the
     * state it moved the cluster to, only if it is still there; fenced: by the token its entry wrote,
     * releasing the cluster), or null when there is nothing to write (leave the cluster alone).
     */
    public StateWrite<S, E> completion(Hold<S> hold, Outcome outcome) {
        required(hold, "hold");
        return completionOf(hold, outcome);
    }

    /** A compat completion: of an operation that moved the cluster to {@code movedTo} (null: it did not); compat mode only. */
    public StateWrite<S, E> completion(S movedTo, Outcome outcome) {
        requireCompat("completion(S, Outcome)", "completion(Hold, Outcome)");
        codeOrNone(movedTo, "movedTo");
        return completionOf(movedTo == null ? null : new Hold<>(Token.of(movedTo), movedTo), outcome);
    }

    /** {@link #completion}, and null for a null hold (the operation never entered). */
    StateWrite<S, E> completionOf(Hold<S> hold, Outcome outcome) {
        required(outcome, "outcome");
        int h = hold == null ? NativeBridge.NONE : states.code(hold.token().state(), "hold.state");
        long v = hold == null ? 0 : hold.token().version();
        int m = codeOrNone(hold == null ? null : hold.movedTo(), "hold.movedTo");
        return results.completion(NativeBridge.completion(modeCode, profileCode, h, v, m, outcome.code()), hold);
    }

    /** The states the status scanner recovers (that the host has). Unmodifiable. */
    public Set<S> orphanStates() {
        return orphanStates;
    }

    /**
     * Plans one orphan-recovery pass. {@code candidates}: as read, before the jobs and hosts (fenced: in an
     * operation's state or held, with their version and owner); the IN_PROGRESS cluster jobs as {@code jobIds}
     * and their {@code jobClusterIds} ({@code -1}: a job whose cluster is unknown). When a candidate is held the
     * answer is NEEDS_OWNER_EVIDENCE: read the hosts and which {@code ownerJobsToCheck} ended, then call again.
     */
    public RecoveryPlan<S, E> planRecovery(List<ClusterSnapshot<S>> candidates, long[] jobIds, long[] jobClusterIds) {
        return recovery(candidates, jobIds, jobClusterIds, null, null);
    }

    /** The pass with the evidence asked for: {@code endedJobIds} (those that ended) and the mshost rows. */
    public RecoveryPlan<S, E> planRecovery(List<ClusterSnapshot<S>> candidates, long[] jobIds, long[] jobClusterIds,
            long[] endedJobIds, List<MsHost> hosts) {
        required(endedJobIds, "endedJobIds");
        required(hosts, "hosts");
        return recovery(candidates, jobIds, jobClusterIds, endedJobIds, hosts);
    }

    /** A compat pass: the candidates' states and the IN_PROGRESS jobs' cluster ids ({@code -1}: unknown). */
    public RecoveryPlan<S, E> planRecovery(List<ClusterSnapshot<S>> candidates, long[] jobClusterIds) {
        requireCompat("planRecovery(candidates, jobClusterIds)", "planRecovery(candidates, jobIds, jobClusterIds)");
        required(jobClusterIds, "jobClusterIds");
        return recovery(candidates, new long[0], jobClusterIds, null, null);
    }

    private RecoveryPlan<S, E> recovery(List<ClusterSnapshot<S>> candidates, long[] jobIds, long[] jobClusterIds,
            long[] endedJobIds, List<MsHost> hosts) {
        long[] rows = RecoveryColumns.candidates(required(candidates, "candidates"), states, mode == StateMode.FENCED);
        return results.recoveries(NativeBridge.planRecovery(modeCode, profileCode, heartbeatThresholdMillis, rows,
                required(jobIds, "jobIds"), required(jobClusterIds, "jobClusterIds"), endedJobIds, RecoveryColumns.hosts(hosts)));
    }

    /**
     * The VMs of a cluster listed in {@code listed}, judged by the core from what the scanner counted; {@code
     * healthy} (does the cluster's Kubernetes answer?) is asked only when the core needs it: Alert, all VMs run.
     */
    public VmSummary vmSummary(S listed, VmCounts counts, BooleanSupplier healthy) {
        required(counts, "counts");
        required(healthy, "healthy");
        return VmSummary.judge(states.code(listed, "listed"), counts, healthy);
    }

    /**
     * Alert reconciliation / fault detection of a cluster listed as {@code listed} whose VMs look like
     * {@code vms}: apply the steps in order, stop at the first miss. Fenced: a held row is left alone,
     * and {@code scanner} (this server) holds the cluster between the two steps of a chain.
     */
    public ReconcilePlan<S, E> planReconcile(ClusterRow<S> listed, VmSummary vms, Owner scanner) {
        required(listed, "listed");
        required(vms, "vms");
        int s = states.code(listed.state(), "listed.state");
        long[] packed = NativeBridge.reconcile(modeCode, profileCode, s, listed.version(), listed.isHeld(), vms.code());
        return new ReconcilePlan<>(results.reconcileSteps(packed, listed.token(), scanner));
    }

    /** {@link #planReconcile(ClusterRow, VmSummary, Owner)} of a compat row; compat mode only. */
    public ReconcilePlan<S, E> planReconcile(S listed, VmSummary vms) {
        requireCompat("planReconcile(S, VmSummary)", "planReconcile(ClusterRow, VmSummary, Owner)");
        return planReconcile(listed == null ? null : ClusterRow.of(listed), vms, null);
    }

    /** What {@code write} breaks of this mode's shape, or null; a write the core decided for this binding is not asked again. */
    public String shapeError(StateWrite<S, E> write) {
        return results.decided(required(write, "write"), mode == StateMode.FENCED) ? null
                : HostWriteCheck.error(modeCode, profileCode, states, events, write);
    }

    /** Upstream's updateState from {@code from} by {@code event}: the row's compat write, or null (none, a self-loop, inexpressible). */
    public StateWrite<S, E> upstreamWrite(S from, E event) {
        return results.upstream(NativeBridge.upstreamWrite(profileCode, states.code(from, "from"),
                events.code(event, "event")), from);
    }

    /** The profile's transition rows that the host can express, in table order. Unmodifiable. */
    public List<StateUpdate<S, E>> transitions() {
        return transitions;
    }

    @Override
    public String toString() {
        return "ClusterStateMachine[" + states.type().getName() + ", " + events.type().getName() + ", " + profile + ", " + mode.label() + "]";
    }

    /** The largest version a fenced write may store (2^40 - 1: a packed result's version field). */
    public long maxVersion() {
        return maxVersion;
    }

    /** Fenced: a server whose heartbeat is older (database ms) is gone; 150000 unless {@link #withHeartbeatThreshold}. */
    public long heartbeatThresholdMillis() {
        return heartbeatThresholdMillis;
    }

    /** A state's library code (the benchmarks' baselines). */
    int stateCode(S state, String argument) {
        return states.code(state, argument);
    }

    private int codeOrNone(S state, String argument) {
        return state == null ? NativeBridge.NONE : states.code(state, argument);
    }

    /** The short forms know only a state: in fenced mode they would write without version and owner. */
    private void requireCompat(String method, String fencedForm) {
        if (mode != StateMode.COMPAT) {
            throw new IllegalStateException(method + " is compat mode's; in " + mode.label() + " mode use " + fencedForm);
        }
    }
}
