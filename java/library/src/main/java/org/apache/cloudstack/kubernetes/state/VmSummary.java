package org.apache.cloudstack.kubernetes.state;

/** The status scanner's view of a cluster's VMs. Ordinal = native VM summary code. */
public enum VmSummary {
    ALL_STOPPED,
    ALL_RUNNING_HEALTHY,
    MIXED,
    /** Some VMs are missing: nothing can be concluded. */
    INCOMPLETE
}
