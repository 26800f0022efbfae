package org.apache.cloudstack.kubernetes.state.examples;

import com.cloud.kubernetes.cluster.KubernetesCluster;
import com.cloud.kubernetes.cluster.KubernetesCluster.Event;
import com.cloud.kubernetes.cluster.KubernetesCluster.State;
import com.cloud.utils.db.TransactionLegacy;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;

/** The standalone form: each write on a pooled connection of its own, for callers outside any transaction. */
public class StandaloneStateDao {
    /** Bound once, at plugin start (PluginStart). */
    private static final ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);

    // region standalone
    private final KubernetesClusterStateDao<State, Event> stateDao =
            new KubernetesClusterStateDao<>(machine, () -> TransactionLegacy.getStandaloneConnectionWithException());

    public boolean updateState(State currentState, Event event, State nextState, KubernetesCluster vo, Object data) {
        return stateDao.updateState(vo.getId(), currentState, event);   // UPDATE ... WHERE id=? AND state=? AND removed IS NULL
    }
    // endregion

    public KubernetesClusterStateDao<State, Event> stateDao() {
        return stateDao;
    }
}
