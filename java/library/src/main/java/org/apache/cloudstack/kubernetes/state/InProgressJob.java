package org.apache.cloudstack.kubernetes.state;

/** An IN_PROGRESS async job and its cluster ({@link #UNKNOWN_CLUSTER} when it cannot be told). */
public record InProgressJob(long jobId, long clusterId) {
    public static final long UNKNOWN_CLUSTER = -1;
}
