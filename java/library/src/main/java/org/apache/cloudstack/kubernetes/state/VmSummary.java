package org.apache.cloudstack.kubernetes.state;

/** The status scanner's view of a cluster's VMs; each crosses JNI as its {@code vm_summary} code. */
public enum VmSummary {
    ALL_STOPPED(NativeCodes.VM_SUMMARY_ALL_STOPPED),
    ALL_RUNNING_HEALTHY(NativeCodes.VM_SUMMARY_ALL_RUNNING_HEALTHY),
    MIXED(NativeCodes.VM_SUMMARY_MIXED),
    /** Some VMs are missing: nothing can be concluded. */
    INCOMPLETE(NativeCodes.VM_SUMMARY_INCOMPLETE);

    private final int code;

    VmSummary(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
