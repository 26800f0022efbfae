// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.value;

/**
 * Who holds a cluster's current operation: the management server ({@code mshost.msid}) by its
 * process epoch ({@code mshost.runid}, new at every start) and the operation's async job
 * ({@link #NO_JOB} for the status scanner's own holds).
 */
public record Owner(long msid, long runid, long jobId) {
    /** The job id of an owner without a job. */
    public static final long NO_JOB = -1;

    public Owner {
        if (msid < 0 || runid < 0 || jobId < NO_JOB) {
            throw new IllegalArgumentException("owner (" + msid + ", " + runid + ", " + jobId + "): msid and runid"
                    + " must not be negative, jobId is an id or NO_JOB");
        }
    }

    /** An owner without a job (the status scanner). */
    public static Owner of(long msid, long runid) {
        return new Owner(msid, runid, NO_JOB);
    }

    public boolean hasJob() {
        return jobId != NO_JOB;
    }
}
