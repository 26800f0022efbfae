// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;

/**
 * What one scaling step of a {@link ScaleOperation} does.
 *
 * @param kind      what to do
 * @param write     the compare-and-set to apply first, then {@link ScaleOperation#markEntered()}:
 *                  ENTER always; SETTINGS_ONLY in fenced mode when it takes the cluster; else null
 * @param message   why the step fails: FAIL_TAKEN_SINCE and REFUSE only, else null
 * @param busyOwner BUSY: the owner of the operation holding the cluster
 * @param hold      what the operation keeps once {@code write} hit (the core's), null without a write
 */
public record ScaleStep<S, E>(Kind kind, StateWrite<S, E> write, String message, Owner busyOwner, Hold<S> hold) {
    /** What the worker does at this step. */
    public enum Kind {
        /** A never-started cluster: change the stored settings only, no state change. */
        SETTINGS_ONLY,
        /** Compare-and-set {@code write} into Scaling / ScalingStoppedCluster; a miss fails. */
        ENTER,
        /** This operation already moved the cluster: nothing to transition. */
        ALREADY_ENTERED,
        /** Another operation (a start) has taken the cluster since the request was accepted: fail. */
        FAIL_TAKEN_SINCE,
        /** Another operation holds the cluster (fenced mode): fail with "please retry". */
        BUSY,
        /** This kind of scale cannot start from the state the operation started from: fail. */
        REFUSE
    }

    /** The table row of the write, or null. */
    public StateUpdate<S, E> update() {
        return write == null ? null : write.update();
    }
}
