package org.apache.cloudstack.kubernetes.state.examples;

import com.cloud.cluster.ManagementServerNode;
import com.cloud.kubernetes.cluster.KubernetesCluster;
import com.cloud.utils.exception.CloudRuntimeException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Owner;

/** What the plugin does once at start: bind its enums, and know which server it is. */
public final class PluginStart {
    // region binding
    ClusterStateMachine<KubernetesCluster.State, KubernetesCluster.Event> machine =
            ClusterStateMachine.bind(KubernetesCluster.State.class, KubernetesCluster.Event.class);
    // with apache/cloudstack#14604 merged (Alert clusters may be scaled):
    //      ClusterStateMachine.bind(..., Profile.ALERT_SCALING);
    // fenced mode (docs/fenced-mode.md), once the schema is migrated:
    //      ClusterStateMachine.bind(..., Profile.UPSTREAM, StateMode.FENCED);
    // endregion

    public ClusterStateMachine<KubernetesCluster.State, KubernetesCluster.Event> machine() {
        return machine;
    }

    // region identity
    /** This management server: its msid, and its runid now (the mshost row of that msid). */
    static Owner thisServer(Connection c) throws SQLException {
        long msid = ManagementServerNode.getManagementServerId();
        try (PreparedStatement ps = c.prepareStatement("SELECT runid FROM mshost WHERE msid = ? AND removed IS NULL")) {
            ps.setLong(1, msid);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new CloudRuntimeException("management server " + msid + " has no mshost row");
                }
                return Owner.of(msid, rs.getLong(1));   // a restart writes a new runid: ask at each use
            }
        }
    }
    // endregion
}
