package org.apache.cloudstack.kubernetes.state;

/**
 * Which transition table a {@link ClusterStateMachine} uses: each is one CloudStack release's own
 * {@code KubernetesCluster.s_fsm}, and crosses JNI as its {@code profile} code.
 */
public enum Profile {
    /** CloudStack 4.21 and later (main, where apache/cloudstack PR #14609 is proposed). */
    UPSTREAM(NativeCodes.PROFILE_UPSTREAM, "upstream"),
    /** Upstream plus Alert -> Scaling (apache/cloudstack PR #14604). */
    ALERT_SCALING(NativeCodes.PROFILE_ALERT_SCALING, "alert-scaling"),
    /** CloudStack 4.20: without the names and rows 4.21 added (add and remove nodes, scaling a stopped cluster). */
    CLOUDSTACK_4_20(NativeCodes.PROFILE_CLOUDSTACK_4_20, "cloudstack-4.20");

    private final int code;
    private final String label;

    Profile(int code, String label) {
        this.code = code;
        this.label = label;
    }

    int code() {
        return code;
    }

    /** The profile's name in {@code spec/state-machine.tsv} and on the command line. */
    public String label() {
        return label;
    }

    /** The profile named {@code label} (as in the table file), IAE if there is none. */
    public static Profile fromLabel(String label) {
        for (Profile p : values()) {
            if (p.label.equals(label)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown profile '" + label
                + "' (expected upstream, alert-scaling or cloudstack-4.20)");
    }
}
