// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.apache.cloudstack.kubernetes.state.value.Arguments;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;

/**
 * One scale or autoscale operation: remembers the token read when the request was accepted (every
 * entry expects it) and what its entry left it, so it enters Scaling / ScalingStoppedCluster once and
 * only completes what it moved (fenced: what it holds; from Created a fenced take only holds the
 * cluster, so a start and the settings change exclude each other). Every step is the core's
 * decision. Not thread-safe: one per worker.
 */
public final class ScaleOperation<S extends Enum<S>, E extends Enum<E>> {
    private final ClusterStateMachine<S, E> machine;
    private final ScaleKind kind;
    private final Token<S> started;
    private final Owner me;
    private Hold<S> hold;
    /** The step whose write {@link #markEntered()} confirms. */
    private ScaleStep<S, E> planned;

    ScaleOperation(ClusterStateMachine<S, E> machine, ScaleKind kind, Token<S> started, Owner me) {
        this.machine = machine;
        this.kind = kind;
        this.started = started;
        this.me = me;
    }

    public ScaleKind kind() {
        return kind;
    }

    public S startedFrom() {
        return started.state();
    }

    /** The token read when the request was accepted. */
    public Token<S> started() {
        return started;
    }

    /** The owner this scale writes (null in compat mode). */
    public Owner owner() {
        return me;
    }

    /** What the operation's entry left it, else null. */
    public Hold<S> hold() {
        return hold;
    }

    /** The state this operation moved the cluster to, or null. */
    public S enteredState() {
        return hold == null ? null : hold.movedTo();
    }

    public boolean movedCluster() {
        return enteredState() != null;
    }

    /**
     * What the next scaling step does, given the row as just re-read ({@code current} may be null
     * once this operation holds or entered the cluster: nothing is read then).
     */
    public ScaleStep<S, E> nextStep(ClusterRow<S> current) {
        if (current == null) {
            if (hold == null) {
                throw new IllegalArgumentException("current is null");
            }
            current = new ClusterRow<>(hold.token(), me);
        }
        ScaleStep<S, E> step = machine.scaleStep(this, current);
        planned = step.write() == null ? null : step;
        return step;
    }

    /** {@link #nextStep(ClusterRow)} on a compat row: the state alone. */
    public ScaleStep<S, E> nextStep(S currentState) {
        return nextStep(currentState == null ? null : ClusterRow.of(currentState));
    }

    /** Records that the write of the last step hit. */
    public void markEntered() {
        if (planned == null) {
            throw new IllegalStateException("markEntered() without a step's write to confirm");
        }
        hold = planned.hold();
        planned = null;
    }

    /** How the operation ends: null when it has nothing to end (leave the cluster alone). */
    public StateWrite<S, E> completion(Outcome outcome) {
        return machine.completionOf(hold, Arguments.required(outcome, "outcome"));
    }

    @Override
    public String toString() {
        return "ScaleOperation[" + kind + " from " + started + (hold == null ? "" : ", holding " + hold) + "]";
    }
}
