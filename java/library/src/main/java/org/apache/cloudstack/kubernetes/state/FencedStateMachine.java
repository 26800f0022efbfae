package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The fenced mode's decisions ({@code src/fencing.rs}) in the host's enums, companion of a bound
 * {@link ClusterStateMachine}: every write compares (state, state_version) and bumps the version,
 * and an operation holds the cluster (owner msid, runid, job) from its entry to its completion.
 *
 * <p>Immutable and thread-safe ({@link FencedScale} is not: one per worker). Null arguments and
 * foreign enum constants throw {@link IllegalArgumentException}; a host that lacks a library name
 * gets REFUSE where an entry or scale would need it, a release-only completion, a reconcile plan
 * that stops before such a step, and no recovery for such a cluster.
 */
public final class FencedStateMachine<S extends Enum<S>, E extends Enum<E>> {
    private static final int NONE_BYTE = NativeCodes.PACKED_NONE;

    private final ClusterStateMachine<S, E> machine;
    private final long maxVersion;
    private final long ownerGoneAfterSeconds;

    private FencedStateMachine(ClusterStateMachine<S, E> machine) {
        this.machine = machine;
        long[] constants = FencedNativeBridge.constants();
        this.maxVersion = constants[0];
        this.ownerGoneAfterSeconds = constants[1];
    }

    /** The fenced companion of a bound machine (same enums, same profile). */
    public static <S extends Enum<S>, E extends Enum<E>> FencedStateMachine<S, E> of(ClusterStateMachine<S, E> machine) {
        if (machine == null) {
            throw new IllegalArgumentException("machine is null");
        }
        return new FencedStateMachine<>(machine);
    }

    public ClusterStateMachine<S, E> machine() {
        return machine;
    }

    /** The largest version a write may store ({@code Long.MAX_VALUE}). */
    public long maxVersion() {
        return maxVersion;
    }

    /** A server whose heartbeat is older than this (database time) is gone. */
    public long ownerGoneAfterSeconds() {
        return ownerGoneAfterSeconds;
    }

    /** The entry of {@code operation}, run by {@code me}, on a cluster read as {@code row}. */
    public FencedEntry<S, E> entry(Operation operation, Fence<S> row, Owner me) {
        if (operation == null) {
            throw new IllegalArgumentException("operation is null");
        }
        requireRow(row, "row");
        require(me, "me");
        int s = machine.stateCode(row.state(), "row.state");
        int packed = FencedNativeBridge.entry(machine.profileCode(), operation.ordinal(), s, row.version(),
                row.isHeld());
        int kind = packed & 0xFF;
        switch (kind) {
            case NativeCodes.ENTRY_TRANSITION:
            case NativeCodes.ENTRY_PROCEED: {
                FencedWrite<S, E> write = write(row.token(), packed, me);
                if (write == null) {
                    return new FencedEntry<>(FencedEntry.Kind.REFUSE, null, null, lacking(operation, row.state(), packed),
                            null);
                }
                return new FencedEntry<>(FencedEntry.Kind.TAKE, write, hold(write, kind == NativeCodes.ENTRY_TRANSITION),
                        null, null);
            }
            case NativeCodes.ENTRY_NOTHING_TO_DO:
                return new FencedEntry<>(FencedEntry.Kind.NOTHING_TO_DO, null, null, null, null);
            case NativeCodes.ENTRY_REFUSE:
                return new FencedEntry<>(FencedEntry.Kind.REFUSE, null, null,
                        NativeBridge.refusalReason(operation.ordinal(), s), null);
            case NativeCodes.ENTRY_BUSY:
                return new FencedEntry<>(FencedEntry.Kind.BUSY, null, null, null, row.owner());
            default:
                throw ClusterStateMachine.unexpected("fenced entry", packed);
        }
    }

    /**
     * How an operation holding the cluster ends: its state change (or none), expecting the token its
     * entry wrote, and releasing the owner. A miss means the cluster was taken from it: leave it.
     */
    public FencedWrite<S, E> completion(Hold<S> hold, Outcome outcome) {
        if (hold == null) {
            throw new IllegalArgumentException("hold is null");
        }
        return completionOf(hold, outcome);
    }

    /** The completion of a hold, or null (leave it) when there is none: the core decides both. */
    FencedWrite<S, E> completionOf(Hold<S> hold, Outcome outcome) {
        if (outcome == null) {
            throw new IllegalArgumentException("outcome is null");
        }
        int h = hold == null ? NativeBridge.NONE : machine.stateCode(hold.token().state(), "hold.state");
        long v = hold == null ? 0 : hold.token().version();
        int m = hold == null || hold.movedTo() == null ? NativeBridge.NONE
                : machine.stateCode(hold.movedTo(), "hold.movedTo");
        int packed = FencedNativeBridge.completion(machine.profileCode(), h, v, m, outcome.ordinal());
        if ((packed & 0xFF) == NativeCodes.COMPLETION_LEAVE) {
            return null;
        }
        if ((packed & 0xFF) != NativeCodes.COMPLETION_COMPARE_AND_SET || hold == null) {
            throw ClusterStateMachine.unexpected("fenced completion", packed);
        }
        FencedWrite<S, E> write = write(hold.token(), packed, null);
        // The host cannot express the state change: release the cluster, leave its state.
        return write != null ? write : releaseOnly(hold.token());
    }

    /** Starts one fenced scale or autoscale; {@code started} is the token read when the request was accepted. */
    public FencedScale<S, E> beginScale(ScaleKind kind, Token<S> started, Owner me) {
        if (kind == null) {
            throw new IllegalArgumentException("kind is null");
        }
        if (started == null) {
            throw new IllegalArgumentException("started is null");
        }
        require(me, "me");
        machine.stateCode(started.state(), "started.state");
        return new FencedScale<>(this, kind, started, me);
    }

    /**
     * Alert reconciliation / fault detection on a listed row, by token: apply in order, stop at the
     * first miss. A held row is left alone. Between two steps the scanner holds the cluster.
     */
    public List<FencedWrite<S, E>> planReconcile(Fence<S> listed, VmSummary vms, Owner scanner) {
        requireRow(listed, "listed");
        if (vms == null) {
            throw new IllegalArgumentException("vms is null");
        }
        require(scanner, "scanner");
        int s = machine.stateCode(listed.state(), "listed.state");
        long packed = FencedNativeBridge.reconcile(machine.profileCode(), s, listed.version(), listed.isHeld(),
                vms.ordinal());
        int count = (int) (packed & 0xFF);
        if (count > 2) {
            throw ClusterStateMachine.unexpected("fenced reconcile plan", packed);
        }
        List<FencedWrite<S, E>> steps = new ArrayList<>(count);
        Token<S> expected = listed.token();
        for (int i = 0; i < count; i++) {
            int bits = (int) (packed >>> (8 + 24 * i)) & 0xFF_FFFF;
            FencedWrite<S, E> step = write(expected, bits << 8, scanner);
            if (step == null) {
                break; // the host cannot express this step: stop here, as at a miss
            }
            steps.add(step);
            expected = step.target();
        }
        return Collections.unmodifiableList(steps);
    }

    /**
     * One fenced recovery pass: a candidate is failed (or, held at rest, released) only when no
     * IN_PROGRESS job names it (by cluster or by the owner's job id) and its owner is provably gone.
     * Read the clusters before the jobs and the hosts. One native call.
     */
    public List<FencedRecovery<S, E>> planRecovery(List<FencedCandidate<S>> candidates, List<InProgressJob> jobs,
            List<MsHost> hosts) {
        return planRecovery(candidates, jobs, new long[0], hosts);
    }

    /**
     * {@link #planRecovery(List, List, List)} that also fails a cluster whose owner's server is up
     * but whose owner's own job has ended ({@code endedJobIds}: owners' job rows that exist and are
     * no longer IN_PROGRESS): the operation ended without releasing the cluster.
     */
    public List<FencedRecovery<S, E>> planRecovery(List<FencedCandidate<S>> candidates, List<InProgressJob> jobs,
            long[] endedJobIds, List<MsHost> hosts) {
        return planRecoveryPass(candidates, jobs, endedJobIds, hosts).recoveries();
    }

    /**
     * The whole verdict of a pass, as {@link ClusterStateMachine#planRecovery} gives it: SKIP (no
     * candidate), WAIT (nothing to recover while an ownerless candidate waits on a job of unknown
     * cluster), or RECOVER these (maybe none).
     */
    public FencedRecoveryPlan<S, E> planRecoveryPass(List<FencedCandidate<S>> candidates, List<InProgressJob> jobs,
            long[] endedJobIds, List<MsHost> hosts) {
        if (candidates == null || jobs == null || hosts == null || endedJobIds == null) {
            throw new IllegalArgumentException((candidates == null ? "candidates" : jobs == null ? "jobs"
                    : hosts == null ? "hosts" : "endedJobIds") + " is null");
        }
        int n = candidates.size();
        long[] ids = new long[n];
        int[] states = new int[n];
        long[] versions = new long[n];
        long[] msids = new long[n];
        long[] runids = new long[n];
        long[] ownerJobs = new long[n];
        for (int i = 0; i < n; i++) {
            FencedCandidate<S> c = candidates.get(i);
            if (c == null) {
                throw new IllegalArgumentException("candidates[" + i + "] is null");
            }
            ids[i] = c.id();
            states[i] = machine.stateCode(c.fence().state(), "candidates[" + i + "].state");
            versions[i] = c.fence().version();
            Owner o = c.fence().owner();
            msids[i] = o == null ? -1 : o.msid();
            runids[i] = o == null ? -1 : o.runid();
            ownerJobs[i] = o == null ? -1 : o.jobId();
        }
        long[] jobIds = new long[jobs.size()];
        long[] jobClusters = new long[jobs.size()];
        for (int i = 0; i < jobIds.length; i++) {
            InProgressJob j = jobs.get(i);
            if (j == null) {
                throw new IllegalArgumentException("jobs[" + i + "] is null");
            }
            jobIds[i] = j.jobId();
            jobClusters[i] = j.clusterId();
        }
        int h = hosts.size();
        long[] hostMsids = new long[h];
        long[] hostRunids = new long[h];
        int[] statuses = new int[h];
        long[] ages = new long[h];
        for (int i = 0; i < h; i++) {
            MsHost host = hosts.get(i);
            if (host == null) {
                throw new IllegalArgumentException("hosts[" + i + "] is null");
            }
            hostMsids[i] = host.msid();
            hostRunids[i] = host.runid();
            statuses[i] = host.status().code();
            ages[i] = Math.max(0, host.heartbeatAgeSeconds()); // a heartbeat "in the future" is fresh
        }
        long[] r = FencedNativeBridge.planRecovery(machine.profileCode(), ids, states, versions, msids, runids,
                ownerJobs, jobIds, jobClusters, endedJobIds, hostMsids, hostRunids, statuses, ages);
        return decodeRecoveries(r);
    }

    private FencedRecoveryPlan<S, E> decodeRecoveries(long[] r) {
        RecoveryPlan.Kind kind = r == null || r.length < 2 ? null : RecoveryDecoder.kind(r[0]);
        if (kind == null || r[1] < 0 || r.length != 2 + 3 * r[1]) {
            throw new CksStateNativeException("cks-state native library returned a malformed fenced recovery plan");
        }
        int n = (int) r[1];
        List<FencedRecovery<S, E>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long id = r[2 + 3 * i];
            int packed = (int) r[3 + 3 * i];
            long version = r[4 + 3 * i];
            S expected = machine.stateOf(packed & 0xFF);
            GoneReason reason = GoneReason.ofCode((packed >>> 24) & 0xFF);
            if (reason == null) {
                throw ClusterStateMachine.unexpected("fenced recovery", packed);
            }
            FencedWrite<S, E> write = expected == null ? null : write(new Token<>(expected, version), packed & ~0xFF, null);
            if (write != null) { // else the host cannot express it: leave that cluster alone
                out.add(new FencedRecovery<>(id, write, reason));
            }
        }
        return new FencedRecoveryPlan<>(kind, Collections.unmodifiableList(out));
    }

    // ---- shared with FencedScale

    int profileCode() {
        return machine.profileCode();
    }

    int stateCode(S state, String argument) {
        return machine.stateCode(state, argument);
    }

    String stateLibraryName(int code) {
        return machine.stateLibraryName(code);
    }

    /**
     * The write of a packed result (event at bits 8-15, target at 16-23, flags at 24-31) from
     * {@code expected}: the owner is {@code me} when the flag says so. Null when the host lacks a name.
     */
    FencedWrite<S, E> write(Token<S> expected, int packed, Owner me) {
        int event = (packed >>> 8) & 0xFF;
        int target = (packed >>> 16) & 0xFF;
        int flags = (packed >>> 24) & 0xFF;
        E by = machine.eventOf(event);
        S to = machine.stateOf(target);
        if (to == null || (by == null && event != NONE_BYTE)) {
            return null;
        }
        Owner owner = (flags & NativeCodes.FLAG_OWNER) != 0 ? me : null;
        return new FencedWrite<>(expected, new Token<>(to, expected.version() + 1), by, owner);
    }

    /** What a take that hit leaves the operation: the token it wrote, and the state it moved to if it did. */
    static <S extends Enum<S>, E extends Enum<E>> Hold<S> hold(FencedWrite<S, E> take, boolean moved) {
        return new Hold<>(take.target(), moved ? take.target().state() : null);
    }

    private FencedWrite<S, E> releaseOnly(Token<S> held) {
        return new FencedWrite<>(held, new Token<>(held.state(), held.version() + 1), null, null);
    }

    private String lacking(Operation operation, S state, int packed) {
        return "Cannot " + operation.specName() + " the Kubernetes cluster in state " + state + ": the host's enums lack "
                + machine.eventLibraryName((packed >>> 8) & 0xFF) + " or " + machine.stateLibraryName((packed >>> 16) & 0xFF);
    }

    private static void require(Owner owner, String argument) {
        if (owner == null) {
            throw new IllegalArgumentException(argument + " is null");
        }
    }

    private static void requireRow(Fence<?> row, String argument) {
        if (row == null) {
            throw new IllegalArgumentException(argument + " is null");
        }
    }

    @Override
    public String toString() {
        return "FencedStateMachine[" + machine + "]";
    }
}
