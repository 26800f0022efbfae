// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.Operation;
import org.apache.cloudstack.kubernetes.state.Outcome;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.value.ClusterRow;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Migration up and down with the data kept, mode detection, and an older server's blind write. */
class FencedSchemaTest {

    static Stream<Databases.Db> dbs() {
        return Databases.perDatabase();
    }

    private static CloudStackSchema.FenceColumns columns(Databases.Db db) throws SQLException {
        try (Connection c = db.connect()) {
            return CloudStackSchema.fenceColumns(c);
        }
    }

    private static void down(Databases.Db db) throws SQLException {
        try (Connection c = db.connect()) {
            CloudStackSchema.migrateDown(c);
        }
    }

    private static void up(Databases.Db db) throws SQLException {
        try (Connection c = db.connect()) {
            CloudStackSchema.migrateUp(c);
        }
    }

    @ParameterizedTest(name = "{0} migration up and down keeps every row and state; the mode follows the schema")
    @MethodSource("dbs")
    void migrationUpAndDownKeepsTheData(Databases.Db db) throws SQLException {
        db.reset();
        down(db);
        assertEquals(CloudStackSchema.FenceColumns.NONE, columns(db));
        Fixtures f = new Fixtures(db);
        long running = f.cluster(State.Running);
        long scaling = f.cluster(State.Scaling);
        long alert = f.cluster(State.Alert);
        assertEquals(StateMode.COMPAT, CloudStackSchema.requireMode(db.source(), null), "compat is the default");
        assertEquals(StateMode.COMPAT, CloudStackSchema.requireMode(db.source(), "compat"));
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> CloudStackSchema.requireMode(db.source(), "fenced"));
        assertTrue(missing.getMessage().contains("state_version") && missing.getMessage().contains("migration"),
                missing.getMessage());

        up(db);
        up(db); // idempotent
        assertEquals(CloudStackSchema.FenceColumns.ALL, columns(db));
        assertEquals(StateMode.FENCED, CloudStackSchema.requireMode(db.source(), "Fenced"));
        assertEquals(StateMode.COMPAT, CloudStackSchema.requireMode(db.source(), "compat"), "compat runs on it too");
        ClusterRow<State> before = ModeFixtures.fence(db, scaling);
        assertEquals(ClusterRow.of(State.Scaling, 0, null), before, "existing rows start at version 0, free");
        assertEquals(State.Running, f.state(running));
        assertEquals(State.Alert, f.state(alert));
        // A fenced operation moves one cluster before going back down.
        ClusterOperationGuard<State, Event> g = new ClusterOperationGuard<>(ModeFixtures.dao(db), new Owner(1, 1, 7));
        OperationEntry<State, Event> e = g.transitToOperationState(running, Operation.UPGRADE);
        assertTrue(g.complete(running, e, Outcome.SUCCEEDED));
        assertEquals(ClusterRow.of(State.Running, 2, null), ModeFixtures.fence(db, running));

        down(db);
        assertEquals(CloudStackSchema.FenceColumns.NONE, columns(db));
        assertEquals(3, f.count("SELECT COUNT(*) FROM kubernetes_cluster"));
        assertEquals(State.Running, f.state(running));
        assertEquals(State.Scaling, f.state(scaling));
        assertEquals(State.Alert, f.state(alert));
        // An older server's DAO works on the downgraded table.
        assertTrue(new Fixtures(db).dao().updateState(scaling, State.Scaling, Event.OperationSucceeded));
        up(db);
        assertEquals(ClusterRow.of(State.Running, 0, null), ModeFixtures.fence(db, scaling));
    }

    @ParameterizedTest(name = "{0} a migration cut short is reported, then completed or undone")
    @MethodSource("dbs")
    void aPartialMigrationIsReportedThenCompletedOrUndone(Databases.Db db) throws SQLException {
        db.reset();
        down(db);
        Fixtures f = new Fixtures(db);
        long scaling = f.cluster(State.Scaling);
        // Cut short after one column; then after the columns, before the trigger.
        for (boolean allColumns : new boolean[] {false, true}) {
            for (boolean complete : new boolean[] {true, false}) {
                down(db);
                if (allColumns) {
                    up(db);
                    try (Connection c = db.connect(); java.sql.Statement st = c.createStatement()) {
                        st.execute("DROP TRIGGER " + CloudStackSchema.VERSION_TRIGGER);
                    }
                } else {
                    f.update("ALTER TABLE kubernetes_cluster ADD COLUMN state_version bigint NOT NULL DEFAULT 0");
                }
                try (Connection c = db.connect()) {
                    assertEquals(FencedMigration.Stage.PARTIAL, FencedMigration.stage(c));
                }
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> CloudStackSchema.requireMode(db.source(), "fenced"));
                assertTrue(e.getMessage().contains("cut short") && e.getMessage().contains(allColumns ? "no trigger"
                        : "[state_version] of 4") && e.getMessage().contains("--migrate compat --apply"), e.getMessage());
                if (complete) {
                    up(db);
                } else {
                    down(db);
                }
                try (Connection c = db.connect()) {
                    assertEquals(complete ? FencedMigration.Stage.FENCED : FencedMigration.Stage.COMPAT,
                            FencedMigration.stage(c));
                }
                assertEquals(State.Scaling, f.state(scaling), "every row and its state stay");
            }
        }
        up(db);
    }

    @ParameterizedTest(name = "{0} an older server's blind state write can never be taken for the current operation")
    @MethodSource("dbs")
    void blindWriteOfAnOlderServer(Databases.Db db) throws SQLException {
        ModeFixtures.resetMigrated(db);
        Fixtures f = new Fixtures(db);
        long id = f.cluster(State.Running);
        ClusterOperationGuard<State, Event> holder = new ClusterOperationGuard<>(ModeFixtures.dao(db), new Owner(5, 1, 50));
        OperationEntry<State, Event> entry = holder.transitToOperationState(id, Operation.UPGRADE);
        assertEquals(OperationEntry.Kind.ENTERED, entry.kind());
        assertEquals(ClusterRow.of(State.Upgrading, 1, new Owner(5, 1, 50)), ModeFixtures.fence(db, id));
        // The upstream DAO before the fix: by id alone, state only.
        assertEquals(1, f.update("UPDATE kubernetes_cluster SET state = 'Alert' WHERE id = " + id));
        ClusterRow<State> after = ModeFixtures.fence(db, id);
        assertEquals(new Token<>(State.Alert, 2), after.token(),
                "the trigger bumped the version");
        assertNull(after.owner(), "and released the cluster");
        assertFalse(holder.complete(id, entry, Outcome.SUCCEEDED), "the holder's completion misses");
        assertEquals(State.Alert, f.state(id));
        // A write that keeps the state changes no token.
        f.update("UPDATE kubernetes_cluster SET state = 'Alert', name = 'renamed' WHERE id = " + id);
        assertEquals(2, ModeFixtures.fence(db, id).version());
        // The cluster is not stuck: the next operation takes it.
        ClusterOperationGuard<State, Event> next = holder.withOwner(new Owner(5, 1, 51));
        assertEquals(OperationEntry.Kind.PROCEEDED, next.transitToOperationState(id, Operation.START).kind());
    }

    @Test
    void modeConfiguration() {
        assertEquals(StateMode.COMPAT, StateMode.fromConfig(null));
        assertEquals(StateMode.COMPAT, StateMode.fromConfig(" "));
        assertEquals(StateMode.FENCED, StateMode.fromConfig(" FENCED "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StateMode.fromConfig("strict"));
        assertTrue(e.getMessage().contains(StateMode.CONFIG_KEY), e.getMessage());
    }
}
