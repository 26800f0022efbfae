// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.function.BooleanSupplier;
import org.apache.cloudstack.kubernetes.state.value.VmCounts;

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

    /** The core's VM rule on a listed state's code; {@code healthy} asked only when the core needs it. */
    static VmSummary judge(int listedState, VmCounts counts, BooleanSupplier healthy) {
        int code = NativeBridge.vmSummary(listedState, counts.expected(), counts.mapped(), counts.present(),
                counts.running(), counts.stopped(), NativeCodes.HEALTH_UNPROBED);
        if (code == NativeCodes.VM_ANSWER_PROBE_HEALTH) {
            code = NativeBridge.vmSummary(listedState, counts.expected(), counts.mapped(), counts.present(),
                    counts.running(), counts.stopped(),
                    healthy.getAsBoolean() ? NativeCodes.HEALTH_HEALTHY : NativeCodes.HEALTH_UNHEALTHY);
        }
        return ofCode(code);
    }

    static VmSummary ofCode(int code) {
        for (VmSummary s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new CksStateNativeException("unknown VM summary code " + code + " from the native library");
    }
}
