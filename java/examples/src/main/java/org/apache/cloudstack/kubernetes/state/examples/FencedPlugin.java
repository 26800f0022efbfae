package org.apache.cloudstack.kubernetes.state.examples;

import com.cloud.kubernetes.cluster.KubernetesCluster.Event;
import com.cloud.kubernetes.cluster.KubernetesCluster.State;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao;
import org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner;
import org.apache.cloudstack.kubernetes.state.jdbc.OperationEntry;

/** The plugin in the mode its configuration names: the stack, one operation, the scanner. */
public final class FencedPlugin {
    private final ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);

    /** What the operation and the scanner did: the entry, whether the completion hit, the scanner. */
    public record Run(OperationEntry<State, Event> entry, boolean completed,
            ClusterStateScanner<State, Event> scanner) {
    }

    public Run upgrade(ConnectionSource dataSourceSource, String configuredValue, long msid, long runid, long jobId,
            long clusterId, BooleanSupplier upgradeNodes, LongSupplier currentRunid) {
        // region fenced-stack
        StateMode mode = CloudStackSchema.requireMode(dataSourceSource, configuredValue);
        KubernetesClusterStateDao<State, Event> dao = new KubernetesClusterStateDao<>(machine.withMode(mode), dataSourceSource);
        ClusterOperationGuard<State, Event> guard = new ClusterOperationGuard<>(dao)
                .withOwner(new Owner(msid, runid, jobId));          // per operation: server, its run, the async job
        OperationEntry<State, Event> entry = guard.transitToOperationState(clusterId, Operation.UPGRADE);
        boolean ok = entry.mayProceed() && upgradeNodes.getAsBoolean();
        boolean completed = guard.complete(clusterId, entry, ok ? Outcome.SUCCEEDED : Outcome.FAILED); // by the entry's token
        ClusterStateScanner<State, Event> scanner =
                new ClusterStateScanner<>(dao, () -> Owner.of(msid, currentRunid.getAsLong()));
        // endregion
        return new Run(entry, completed, scanner);
    }
}
