package org.apache.cloudstack.kubernetes.state.examples;

import com.cloud.kubernetes.cluster.KubernetesCluster.Event;
import com.cloud.kubernetes.cluster.KubernetesCluster.State;
import java.util.function.LongPredicate;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.ReconcileResult;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;

/** The scanner task of KubernetesClusterManagerImpl: one pass (CloudStack: every 30 s under its global lock). */
public class StatusScannerTask {
    private final KubernetesClusterStateDao<State, Event> stateDao;
    private final long msid;
    private final long runid;
    private final LongPredicate apiHealthy;

    public StatusScannerTask(KubernetesClusterStateDao<State, Event> stateDao, long msid, long runid,
            LongPredicate apiHealthy) {
        this.stateDao = stateDao;
        this.msid = msid;
        this.runid = runid;
        this.apiHealthy = apiHealthy;
    }

    private boolean isClusterApiHealthy(long clusterId) {
        return apiHealthy.test(clusterId);
    }

    /** One pass: what the recovery and the reconciliation did. */
    public Object[] pass() {
        // region scanner
        ClusterStateScanner<State, Event> scanner = new ClusterStateScanner<>(stateDao,
                () -> Owner.of(msid, runid));                                // this server (fenced mode holds with it)
        RecoveryResult<State> recovered = scanner.recoverOrphanedOperationStates();        // stuck operations failed by the table
        ReconcileResult<State> reconciled = scanner.reconcileAlertClusters(id -> isClusterApiHealthy(id)); // Alert -> Running / Stopped
        // endregion
        return new Object[] {recovered, reconciled};
    }
}
