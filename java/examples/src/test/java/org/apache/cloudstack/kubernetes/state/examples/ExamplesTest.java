package org.apache.cloudstack.kubernetes.state.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cloud.cluster.ManagementServerNode;
import com.cloud.kubernetes.cluster.KubernetesCluster;
import com.cloud.kubernetes.cluster.KubernetesCluster.Event;
import com.cloud.kubernetes.cluster.KubernetesCluster.State;
import com.cloud.kubernetes.cluster.KubernetesClusterVO;
import com.cloud.utils.db.TransactionLegacy;
import com.cloud.utils.exception.CloudRuntimeException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.EntryDecision;
import org.apache.cloudstack.kubernetes.state.Owner;
import org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema;
import org.apache.cloudstack.kubernetes.state.jdbc.OperationEntry;
import org.apache.cloudstack.kubernetes.state.jdbc.RecoveryResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every example the docs show, run as a plugin would run it, against H2 and MariaDB. */
class ExamplesTest {
    @AfterEach
    void endTheThreadsTransaction() {
        TransactionLegacy.currentTxn().close();
    }

    private static void setUp(ExampleDatabase db) throws SQLException {
        db.reset();
        TransactionLegacy.useConnections(db.connections());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void bindingAndTheServersIdentity(ExampleDatabase db) throws SQLException {
        setUp(db);
        PluginStart plugin = new PluginStart();
        assertEquals(State.Scaling, plugin.machine().nextState(State.Running, Event.ScaleUpRequested));
        ManagementServerNode.useId(7001);
        db.rows().mshost(7001, "Up", 33);
        try (Connection c = db.connections().open()) {
            assertEquals(Owner.of(7001, 33), PluginStart.thisServer(c));
        }
        ManagementServerNode.useId(7002);
        try (Connection c = db.connections().open()) {
            assertThrows(CloudRuntimeException.class, () -> PluginStart.thisServer(c));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theStandaloneDao(ExampleDatabase db) throws SQLException {
        setUp(db);
        long id = db.cluster("Running");
        StandaloneStateDao dao = new StandaloneStateDao();
        KubernetesClusterVO vo = new KubernetesClusterVO(id, State.Running);
        assertTrue(dao.updateState(State.Running, Event.StopRequested, State.Stopping, vo, null));
        assertFalse(dao.updateState(State.Running, Event.StopRequested, State.Stopping, vo, null), "moved on");
        assertEquals("Stopping", db.state(id));
    }

    /** The joined DAO inside an outer transaction that already wrote the row: no second connection, no wait. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theJoinedDaoInsideAnOuterTransaction(ExampleDatabase db) throws SQLException {
        setUp(db);
        long id = db.cluster("Running");
        JoinedStateDao dao = new JoinedStateDao(new PluginStart().machine());
        KubernetesClusterVO vo = new KubernetesClusterVO(id, State.Running);
        TransactionLegacy outer = TransactionLegacy.currentTxn();
        outer.start();                                  // as Transaction.execute(...) does
        try (PreparedStatement ps = outer.getConnection().prepareStatement(
                "UPDATE kubernetes_cluster SET description = 'locked by the outer transaction' WHERE id = ?")) {
            ps.setLong(1, id);
            ps.executeUpdate();
        }
        assertTrue(dao.updateState(State.Running, Event.StopRequested, State.Stopping, vo, null));
        assertEquals("Running", db.state(id), "nothing committed before the outer transaction ends");
        outer.rollback();
        assertEquals("Running", db.state(id), "the outer rollback takes the state change with it");

        assertTrue(dao.updateState(State.Running, Event.StopRequested, State.Stopping, vo, null));
        assertEquals("Stopping", db.state(id), "without an outer transaction it commits itself");
        assertFalse(dao.updateState(State.Running, Event.StopRequested, State.Stopping, vo, null), "a miss");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theJoinedDaoLeavesTheTransactionAsFoundWhateverIsThrown(ExampleDatabase db) throws SQLException {
        setUp(db);
        long id = db.cluster("Running");
        JoinedStateDao dao = new JoinedStateDao(new PluginStart().machine());
        KubernetesCluster broken = new KubernetesCluster() {
            @Override
            public long getId() {
                throw new IllegalStateException("no id");
            }

            @Override
            public State getState() {
                return State.Running;
            }
        };
        assertEquals("no id", assertThrows(IllegalStateException.class,
                () -> dao.updateState(State.Running, Event.StopRequested, State.Stopping, broken, null)).getMessage());
        // Had the failed call left its start() open, this write would nest in it and never commit.
        assertTrue(dao.updateState(State.Running, Event.StopRequested, State.Stopping,
                new KubernetesClusterVO(id, State.Running), null));
        assertEquals("Stopping", db.state(id), "committed: the failed call left no transaction open");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theUpgradeWorker(ExampleDatabase db) throws SQLException {
        setUp(db);
        StandaloneStateDao dao = new StandaloneStateDao();
        long running = db.cluster("Running");
        UpgradeWorker worker = new UpgradeWorker(dao.stateDao(), cluster -> {
            try {
                assertEquals("Upgrading", db.state(cluster.getId()), "the work runs in the operation's state");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return true;
        });
        assertTrue(worker.upgradeCluster(new KubernetesClusterVO(running, State.Running)));
        assertEquals("Running", db.state(running));
        long stopped = db.cluster("Stopped");
        CloudRuntimeException refused = assertThrows(CloudRuntimeException.class,
                () -> worker.upgradeCluster(new KubernetesClusterVO(stopped, State.Stopped)));
        assertTrue(refused.getMessage().contains("Stopped"), refused.getMessage());
        long moved = db.cluster("Stopped");
        CloudRuntimeException lost = assertThrows(CloudRuntimeException.class,
                () -> worker.upgradeCluster(new KubernetesClusterVO(moved, State.Running)));
        assertTrue(lost.getMessage().contains("please retry"), "a stale Running: " + lost.getMessage());
        assertEquals("Stopped", db.state(moved));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theStatusScannerTask(ExampleDatabase db) throws SQLException {
        setUp(db);
        long stuck = db.cluster("Scaling");
        Object[] pass = new StatusScannerTask(new StandaloneStateDao().stateDao(), 7001, 33, id -> true).pass();
        RecoveryResult<?> recovered = (RecoveryResult<?>) pass[0];
        assertEquals(java.util.List.of(stuck), recovered.recoveredIds());
        assertEquals("Alert", db.state(stuck));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theFencedStack(ExampleDatabase db) throws SQLException {
        setUp(db);
        try (Connection c = db.connections().open()) {
            CloudStackSchema.migrateUp(c);
        }
        try {
            db.rows().mshost(7001, "Up", 33);
            long id = db.cluster("Running");
            FencedPlugin.Run run = new FencedPlugin().upgrade(db.connections(), "fenced", 7001, 33, 900, id, () -> true,
                    () -> 33);
            assertEquals(OperationEntry.Kind.ENTERED, run.entry().kind());
            assertTrue(run.completed());
            assertEquals("Running", db.state(id));
            assertEquals("fenced", run.scanner().mode().label());
        } finally {
            try (Connection c = db.connections().open()) {
                CloudStackSchema.migrateDown(c);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExampleDatabase.class)
    void theFirstProgram(ExampleDatabase db) throws SQLException {
        setUp(db);
        long id = db.cluster("Running");
        FirstProgram.Answers answers = FirstProgram.run(db.connections(), id);
        assertEquals(new FirstProgram.Answers(State.Scaling, EntryDecision.Kind.NOTHING_TO_DO, true), answers);
        assertEquals("Stopping", db.state(id));
    }
}
