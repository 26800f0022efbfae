package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.function.Predicate;

/**
 * One management server's status scanner, in either mode: {@link KubernetesClusterStatusScanner}
 * (compat) or {@link FencedStatusScanner} (fenced). The caller runs the passes (CloudStack: every
 * 30 s under a global lock).
 */
public interface StatusScanner<S extends Enum<S>, E extends Enum<E>> {

    /** Observes the points of every later pass ({@code null}: none). */
    void setListener(ScanListener listener);

    /** One orphan-recovery pass. */
    RecoveryResult recoverOrphanedOperationStates();

    /**
     * The same pass in detail: with {@code apply} it is {@link #recoverOrphanedOperationStates()};
     * without, it reads and plans and writes nothing (what it would do now: cks-state scan, explain).
     */
    RecoveryReport<S> orphanRecovery(boolean apply);

    /** One Alert-reconciliation / fault-detection pass; {@code healthy} answers for Alert clusters whose VMs run. */
    ReconcileResult<S> reconcileAlertClusters(Predicate<Long> healthy);
}
