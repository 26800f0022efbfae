package org.apache.cloudstack.kubernetes.state.examples;

import com.cloud.kubernetes.cluster.KubernetesCluster;
import com.cloud.kubernetes.cluster.KubernetesCluster.Event;
import com.cloud.kubernetes.cluster.KubernetesCluster.State;
import com.cloud.utils.db.TransactionLegacy;
import com.cloud.utils.exception.CloudRuntimeException;
import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException;

/** KubernetesClusterDaoImpl.updateState in the joined form: inside the thread's TransactionLegacy. */
public class JoinedStateDao {
    private final KubernetesClusterStateDao<State, Event> stateDao;

    public JoinedStateDao(ClusterStateMachine<State, Event> machine) {
        this.stateDao = new KubernetesClusterStateDao<>(machine, () -> TransactionLegacy.getStandaloneConnectionWithException());
    }

    // region joined
    public boolean updateState(State currentState, Event event, State nextState, KubernetesCluster vo, Object data) {
        TransactionLegacy txn = TransactionLegacy.currentTxn();
        txn.start();                       // nests in an outer Transaction.execute, if there is one
        boolean committed = false;
        try {
            boolean changed = stateDao.updateState(txn.getConnection(), vo.getId(), currentState, event);
            txn.commit();                  // commits only when this start() was the outermost
            committed = true;
            return changed;
        } catch (SQLException e) {
            throw new CloudRuntimeException("Kubernetes cluster " + vo.getId() + ": state not written", e);
        } catch (StateStoreException e) {  // isLostRace(): a deadlock or lock wait timeout ended the transaction
            throw new CloudRuntimeException("Kubernetes cluster " + vo.getId() + ": state not written"
                    + (e.isLostRace() ? ", please retry" : ""), e);
        } finally {
            if (!committed) {
                txn.rollback();            // whatever was thrown: the thread's transaction is left as found
            }
        }
    }
    // endregion
}
