package org.apache.cloudstack.kubernetes.state.examples;

import com.cloud.kubernetes.cluster.KubernetesCluster;
import com.cloud.kubernetes.cluster.KubernetesCluster.Event;
import com.cloud.kubernetes.cluster.KubernetesCluster.State;
import com.cloud.utils.exception.CloudRuntimeException;
import java.util.function.Predicate;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.OperationEntry;

/** An action worker (here the upgrade) entering its operation's state through the guard. */
public class UpgradeWorker {
    private final KubernetesClusterStateDao<State, Event> stateDao;
    private final Predicate<KubernetesCluster> upgradeNodes;

    public UpgradeWorker(KubernetesClusterStateDao<State, Event> stateDao, Predicate<KubernetesCluster> upgradeNodes) {
        this.stateDao = stateDao;
        this.upgradeNodes = upgradeNodes;
    }

    public boolean upgradeCluster(KubernetesCluster cluster) {
        // region worker
        ClusterOperationGuard<State, Event> guard = new ClusterOperationGuard<>(stateDao);

        OperationEntry<State, Event> entry = guard.transitToOperationState(cluster.getId(), Operation.UPGRADE, cluster.getState());
        switch (entry.kind()) {
            case ENTERED: case PROCEEDED: break;                                // do the work
            case NOTHING_TO_DO: return true;                                    // already done
            default: throw new CloudRuntimeException(entry.message());          // REFUSED, LOST_RACE ("please retry")
        }
        boolean ok = upgradeNodes.test(cluster);
        guard.complete(cluster.getId(), entry, ok ? Outcome.SUCCEEDED : Outcome.FAILED);  // upstream's failOperationIfStillIn
        // endregion
        return ok;
    }
}
