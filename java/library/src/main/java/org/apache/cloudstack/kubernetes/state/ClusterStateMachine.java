package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The Kubernetes cluster state machine, answered by the native core, in the host's own enums.
 *
 * <p>Binds to the host's {@code KubernetesCluster.State} / {@code Event} classes by constant name,
 * in any declaration order: ordinals never cross JNI, only the library's codes. A host constant the
 * library does not know is a bind error; a library name the host lacks makes its rows unreachable
 * ({@link #nextState} returns null, an entry or scale step that would need it is refused, a
 * completion that would need it leaves the state alone).
 *
 * <p>Immutable and thread-safe. Null arguments and constants of another enum class throw
 * {@link IllegalArgumentException} naming the argument.
 */
public final class ClusterStateMachine<S extends Enum<S>, E extends Enum<E>> {
    private static final int NONE_BYTE = NativeCodes.PACKED_NONE;

    private final Profile profile;
    private final int profileCode;
    private final EnumBinding<S> states;
    private final EnumBinding<E> events;
    private final Set<S> orphanStates;
    private final List<StateUpdate<S, E>> transitions;
    /**
     * Entry decisions already decoded, by operation and state code, each with the packed value it
     * was decoded from: the result objects are immutable, so decideEntry hands out the same one
     * for the same native answer and the hot path allocates nothing. Filled lazily; a race only
     * decodes twice (DecodedEntry's final fields make the publication safe).
     */
    private final DecodedEntry<S, E>[] decodedEntries;
    private final int stateCodeCount;

    private ClusterStateMachine(Profile profile, EnumBinding<S> states, EnumBinding<E> events) {
        this.profile = profile;
        this.profileCode = profile.ordinal();
        this.states = states;
        this.events = events;
        this.orphanStates = readOrphanStates();
        this.transitions = readTransitions();
        @SuppressWarnings("unchecked")
        DecodedEntry<S, E>[] entries = (DecodedEntry<S, E>[]) new DecodedEntry<?, ?>[
                Operation.values().length * states.codeCount()];
        this.decodedEntries = entries;
        this.stateCodeCount = states.codeCount();
    }

    private static final class DecodedEntry<S, E> {
        final int packed;
        final EntryDecision<S, E> decision;

        DecodedEntry(int packed, EntryDecision<S, E> decision) {
            this.packed = packed;
            this.decision = decision;
        }
    }

    /** Binds the host's enums with the upstream profile. */
    public static <S extends Enum<S>, E extends Enum<E>> ClusterStateMachine<S, E> bind(Class<S> states, Class<E> events) {
        return bind(states, events, Profile.UPSTREAM);
    }

    /** Binds the host's enums by constant name; IAE naming an unknown constant and its class. */
    public static <S extends Enum<S>, E extends Enum<E>> ClusterStateMachine<S, E> bind(
            Class<S> states, Class<E> events, Profile profile) {
        if (profile == null) {
            throw new IllegalArgumentException("profile is null");
        }
        if (states == null) {
            throw new IllegalArgumentException("states class is null");
        }
        if (events == null) {
            throw new IllegalArgumentException("events class is null");
        }
        NativeLibrary.load();
        return new ClusterStateMachine<>(profile,
                EnumBinding.of(states, NativeLibrary.stateNames(), "state"),
                EnumBinding.of(events, NativeLibrary.eventNames(), "event"));
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
        if (name == null) {
            throw new IllegalArgumentException("name is null");
        }
        try {
            return Enum.valueOf(states.type(), name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("name '" + name + "' is not a constant of " + states.type().getName(), e);
        }
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

    /** May {@code operation} start from {@code current}? Hot: one native call, no allocation once warm. */
    public EntryDecision<S, E> decideEntry(Operation operation, S current) {
        if (operation == null) {
            throw new IllegalArgumentException("operation is null");
        }
        int s = states.code(current, "current");
        int packed = NativeBridge.decideEntry(profileCode, operation.ordinal(), s);
        int slot = operation.ordinal() * stateCodeCount + s;
        DecodedEntry<S, E> decoded = decodedEntries[slot];
        if (decoded != null && decoded.packed == packed) {
            return decoded.decision;
        }
        EntryDecision<S, E> decision = decodeEntry(operation, s, packed);
        decodedEntries[slot] = new DecodedEntry<>(packed, decision);
        return decision;
    }

    private EntryDecision<S, E> decodeEntry(Operation operation, int s, int packed) {
        switch (packed & 0xFF) {
            case NativeCodes.ENTRY_TRANSITION: {
                StateUpdate<S, E> update = update(s, (packed >>> 8) & 0xFF, (packed >>> 16) & 0xFF);
                return update != null ? EntryDecision.transition(update)
                        : EntryDecision.refuse(operation, s, lacking((packed >>> 8) & 0xFF, (packed >>> 16) & 0xFF));
            }
            case NativeCodes.ENTRY_PROCEED:
                return EntryDecision.proceed();
            case NativeCodes.ENTRY_NOTHING_TO_DO:
                return EntryDecision.nothingToDo();
            case NativeCodes.ENTRY_REFUSE:
                return EntryDecision.refuse(operation, s, null);
            default:
                throw unexpected("entry decision", packed);
        }
    }

    /** Starts one scale or autoscale operation (one per worker, not thread-safe). */
    public ScaleOperation<S, E> beginScale(ScaleKind kind, S startedFrom) {
        if (kind == null) {
            throw new IllegalArgumentException("kind is null");
        }
        int s = states.code(startedFrom, "startedFrom");
        int packed = NativeBridge.scaleBegin(profileCode, kind.ordinal(), s);
        return new ScaleOperation<>(this, kind, startedFrom, s, scaleStep(packed, kind, startedFrom));
    }

    /**
     * How to end an operation that moved the cluster to {@code movedTo} (null: it proceeded without
     * a state change, so the completion leaves the state alone).
     */
    public Completion<S, E> completion(S movedTo, Outcome outcome) {
        if (outcome == null) {
            throw new IllegalArgumentException("outcome is null");
        }
        int m = movedTo == null ? NativeBridge.NONE : states.code(movedTo, "movedTo");
        int packed = NativeBridge.complete(profileCode, m, outcome.ordinal());
        switch (packed & 0xFF) {
            case NativeCodes.COMPLETION_COMPARE_AND_SET: {
                StateUpdate<S, E> update = update((packed >>> 8) & 0xFF, (packed >>> 16) & 0xFF, (packed >>> 24) & 0xFF);
                return update == null ? Completion.leave() : new Completion<>(update);
            }
            case NativeCodes.COMPLETION_LEAVE:
                return Completion.leave();
            default:
                throw unexpected("completion", packed);
        }
    }

    /** The states the status scanner recovers (that the host has). Unmodifiable. */
    public Set<S> orphanStates() {
        return orphanStates;
    }

    /**
     * Plans one scanner pass over {@code candidates} (as read, before the jobs) and the cluster ids
     * of the IN_PROGRESS cluster jobs ({@code -1} = a job whose cluster is unknown). One native call.
     */
    public RecoveryPlan<S, E> planRecovery(List<ClusterSnapshot<S>> candidates, long[] jobClusterIds) {
        if (candidates == null) {
            throw new IllegalArgumentException("candidates is null");
        }
        if (jobClusterIds == null) {
            throw new IllegalArgumentException("jobClusterIds is null");
        }
        int n = candidates.size();
        long[] ids = new long[n];
        int[] codes = new int[n];
        for (int i = 0; i < n; i++) {
            ClusterSnapshot<S> c = candidates.get(i);
            if (c == null) {
                throw new IllegalArgumentException("candidates[" + i + "] is null");
            }
            ids[i] = c.id();
            codes[i] = states.codeOrNone(c.state());
            if (codes[i] < 0) {
                throw states.foreign(c.state(), "candidates[" + i + "].state");
            }
        }
        long[] result = NativeBridge.planRecovery(ids, codes, jobClusterIds);
        return RecoveryDecoder.decode(this, result);
    }

    /** Alert reconciliation (or fault detection) of a cluster listed in {@code listed}. */
    public ReconcilePlan<S, E> planReconcile(S listed, VmSummary vms) {
        if (vms == null) {
            throw new IllegalArgumentException("vms is null");
        }
        int s = states.code(listed, "listed");
        long packed = NativeBridge.planReconcile(profileCode, s, vms.ordinal());
        int count = (int) (packed & 0xFF);
        if (count > 2) {
            throw unexpected("reconcile plan", packed);
        }
        List<StateUpdate<S, E>> steps = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int bits = (int) (packed >>> (8 + 24 * i)) & 0xFF_FFFF;
            StateUpdate<S, E> step = update(bits & 0xFF, (bits >>> 8) & 0xFF, (bits >>> 16) & 0xFF);
            if (step == null) {
                break; // the host cannot express this step: the plan stops here, as at a miss
            }
            steps.add(step);
        }
        return new ReconcilePlan<>(steps);
    }

    /** The profile's transition rows that the host can express, in table order. Unmodifiable. */
    public List<StateUpdate<S, E>> transitions() {
        return transitions;
    }

    @Override
    public String toString() {
        return "ClusterStateMachine[" + states.type().getName() + ", " + events.type().getName() + ", " + profile + "]";
    }

    // ---- package-private helpers shared with ScaleOperation and RecoveryDecoder

    int profileCode() {
        return profileCode;
    }

    int stateCode(S state, String argument) {
        return states.code(state, argument);
    }

    String stateLibraryName(int code) {
        return states.libraryName(code);
    }

    /** The host's state of a library code, or null (none, or a name the host lacks). */
    S stateOf(int code) {
        return code == NONE_BYTE ? null : states.constant(code);
    }

    /** The host's event of a library code, or null (none, or a name the host lacks). */
    E eventOf(int code) {
        return code == NONE_BYTE ? null : events.constant(code);
    }

    String eventLibraryName(int code) {
        return events.libraryName(code);
    }

    /** A compare-and-set in host constants, or null when the host lacks one of the names. */
    StateUpdate<S, E> update(int expected, int event, int target) {
        if (expected == NONE_BYTE || event == NONE_BYTE || target == NONE_BYTE) {
            return null;
        }
        S from = states.constant(expected);
        E by = events.constant(event);
        S to = states.constant(target);
        return from == null || by == null || to == null ? null : new StateUpdate<>(from, by, to);
    }

    /** Decodes a packed scale begin/step result (kinds: NativeCodes.SCALE_*). */
    ScaleStep<S, E> scaleStep(int packed, ScaleKind kind, S startedFrom) {
        int b1 = (packed >>> 8) & 0xFF;
        int b2 = (packed >>> 16) & 0xFF;
        int b3 = (packed >>> 24) & 0xFF;
        switch (packed & 0xFF) {
            case NativeCodes.SCALE_ENTER: {
                StateUpdate<S, E> update = update(b1, b2, b3);
                if (update == null) {
                    return new ScaleStep<>(ScaleStep.Kind.REFUSE, null,
                            scaleRefusal(kind, startedFrom) + " (" + lacking(b2, b3) + ")");
                }
                return new ScaleStep<>(ScaleStep.Kind.ENTER, update, null);
            }
            case NativeCodes.SCALE_SETTINGS_ONLY:
                return new ScaleStep<>(ScaleStep.Kind.SETTINGS_ONLY, null, null);
            case NativeCodes.SCALE_ALREADY_ENTERED:
                return new ScaleStep<>(ScaleStep.Kind.ALREADY_ENTERED, null, null);
            case NativeCodes.SCALE_REFUSE:
                return new ScaleStep<>(ScaleStep.Kind.REFUSE, null, scaleRefusal(kind, startedFrom));
            case NativeCodes.SCALE_FAIL_TAKEN_SINCE:
                return new ScaleStep<>(ScaleStep.Kind.FAIL_TAKEN_SINCE, null,
                        ScaleMessages.takenSince(kind, states.libraryName(b3)));
            default:
                throw unexpected("scale step", packed);
        }
    }

    /** The core's message for a scale of this kind refused from this state (cold). */
    private String scaleRefusal(ScaleKind kind, S startedFrom) {
        return NativeBridge.scaleRefusalReason(kind.ordinal(), states.code(startedFrom, "startedFrom"));
    }

    private String lacking(int event, int target) {
        return "the host's enums lack " + events.libraryName(event) + " or " + states.libraryName(target);
    }

    static CksStateNativeException unexpected(String what, long packed) {
        return new CksStateNativeException("cks-state native library returned an unexpected " + what
                + " 0x" + Long.toHexString(packed));
    }

    private Set<S> readOrphanStates() {
        EnumSet<S> set = EnumSet.noneOf(states.type());
        for (int code : NativeBridge.orphanStates()) {
            S s = states.constant(code);
            if (s != null) {
                set.add(s);
            }
        }
        return Collections.unmodifiableSet(set);
    }

    private List<StateUpdate<S, E>> readTransitions() {
        int[] triples = NativeBridge.transitions(profileCode);
        List<StateUpdate<S, E>> rows = new ArrayList<>(triples.length / 3);
        for (int i = 0; i + 2 < triples.length; i += 3) {
            StateUpdate<S, E> row = update(triples[i], triples[i + 1], triples[i + 2]);
            if (row != null) {
                rows.add(row);
            }
        }
        return Collections.unmodifiableList(rows);
    }
}
