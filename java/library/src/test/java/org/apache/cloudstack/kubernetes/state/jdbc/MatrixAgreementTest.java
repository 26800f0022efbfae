// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.junit.jupiter.api.Test;

/**
 * The DAO and the scanner make the same decisions on every database case of {@link Databases#all()}
 * (H2 and MariaDB; found rows and affected rows on MariaDB, H2 reporting found rows; READ COMMITTED
 * and REPEATABLE READ): one seeded script of compare-and-sets (right, wrong and stale expected
 * states, also from a transaction whose snapshot predates another writer's change), scanner
 * passes with and without jobs, and Alert reconciliations, run on each case; every answer, the
 * final states and the history must be identical everywhere.
 */
class MatrixAgreementTest {
    private static final int CLUSTERS = 12;
    private static final int STEPS = Integer.getInteger("cks.matrix.steps", 110);

    /** The whole script on one database case, as text with cluster indexes instead of ids. */
    static List<String> transcript(Databases.Db db, long seed) throws SQLException {
        db.reset();
        Fixtures f = new Fixtures(db);
        Random r = new Random(seed);
        State[] states = State.values();
        Event[] events = Event.values();
        KubernetesClusterStateDao<State, Event> dao =
                new KubernetesClusterStateDao<>(Fixtures.MACHINE, db.source());
        ClusterStateScanner<State, Event> scanner = new ClusterStateScanner<>(dao);
        long[] ids = new long[CLUSTERS];
        Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < CLUSTERS; i++) {
            ids[i] = f.cluster(states[r.nextInt(states.length)]);
            index.put(ids[i], i);
            f.vm(ids[i], 1000 + i, "Running", true);
        }
        List<String> out = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            int i = r.nextInt(CLUSTERS);
            long id = ids[i];
            switch (r.nextInt(6)) {
                case 0: { // a compare-and-set from a state picked at random (mostly wrong)
                    State expected = states[r.nextInt(states.length)];
                    Event event = events[r.nextInt(events.length)];
                    out.add(step + " cas " + i + " " + expected + " " + event + " = " + dao.updateState(id, expected, event));
                    break;
                }
                case 1: { // read, then a compare-and-set from what was read, by the first event that moves it
                    State read = f.state(id);
                    Event event = firstEventFrom(read, r);
                    out.add(step + " read-cas " + i + " " + read + " " + event + " = "
                            + (event != null && dao.updateState(id, read, event)));
                    break;
                }
                case 2: { // a stale read: this transaction read before another writer moved the cluster
                    try (Connection c = db.connect()) {
                        c.setAutoCommit(false);
                        State read = stateIn(c, id);
                        Event mine = firstEventFrom(read, r);
                        Event theirs = firstEventFrom(read, r);
                        boolean other = theirs != null && dao.updateState(id, read, theirs);
                        boolean stale;
                        try { // in this transaction: H2 at REPEATABLE READ throws the lost race, MariaDB misses
                            stale = mine != null && dao.apply(c, id,
                                    StateWrite.of(new StateUpdate<>(read, mine, Fixtures.MACHINE.nextState(read, mine))));
                        } catch (StateStoreException lost) {
                            assertTrue(lost.isLostRace(), lost.getMessage());
                            stale = false;
                        }
                        c.rollback();
                        out.add(step + " stale " + i + " " + read + " other " + theirs + "=" + other + " mine " + mine
                                + "=" + stale);
                    }
                    break;
                }
                case 3: { // a scanner pass, some clusters with an IN_PROGRESS job
                    List<Long> jobs = new ArrayList<>();
                    for (int k = 0; k < CLUSTERS; k++) {
                        if (r.nextInt(3) == 0) {
                            jobs.add(f.jobWithInstanceId(ids[k]));
                        }
                    }
                    RecoveryResult<State> result = scanner.recoverOrphanedOperationStates();
                    out.add(step + " recover " + result.kind() + " " + indexes(result.recoveredIds(), index)
                            + " missed " + indexes(result.missedIds(), index));
                    f.update("UPDATE async_job SET job_status = 1");
                    break;
                }
                case 4: { // Alert reconciliation with VM states picked at random
                    for (int k = 0; k < CLUSTERS; k++) {
                        f.setVmState(1000 + k, r.nextBoolean() ? "Running" : "Stopped");
                    }
                    ReconcileResult<State> result = scanner.reconcileAlertClusters(c -> index.get(c) % 3 != 0);
                    Map<Integer, State> moved = new TreeMap<>();
                    result.moved().forEach((c, s) -> moved.put(index.get(c), s));
                    out.add(step + " reconcile " + moved + " missed " + indexes(result.missedIds(), index));
                    break;
                }
                default: { // an operator (or an old server) writes a state outside the library
                    State forced = states[r.nextInt(states.length)];
                    f.setState(id, forced);
                    out.add(step + " operator " + i + " " + forced);
                    break;
                }
            }
        }
        for (int i = 0; i < CLUSTERS; i++) {
            out.add("final " + i + " " + f.state(ids[i]));
        }
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT cluster_id, from_state, to_state FROM cks_state_history ORDER BY id")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add("history " + index.get(rs.getLong(1)) + " " + rs.getString(2).strip() + " "
                            + rs.getString(3).strip());
                }
            }
        }
        return out;
    }

    private static Event firstEventFrom(State from, Random r) {
        Event[] events = Event.values();
        int start = r.nextInt(events.length);
        for (int k = 0; k < events.length; k++) {
            Event e = events[(start + k) % events.length];
            if (Fixtures.MACHINE.nextState(from, e) != null) {
                return e;
            }
        }
        return null;
    }

    private static State stateIn(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT state FROM kubernetes_cluster WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return State.valueOf(rs.getString(1).strip());
            }
        }
    }

    private static List<Integer> indexes(List<Long> ids, Map<Long, Integer> index) {
        return ids.stream().map(index::get).sorted().toList();
    }

    @Test
    void everyDatabaseDriverModeAndIsolationLevelDecidesTheSame() throws SQLException {
        for (long seed : new long[] {11, 29}) {
            List<String> reference = null;
            String referenceCase = null;
            for (Databases.Db db : Databases.all().toList()) {
                List<String> t = transcript(db, seed);
                long hits = t.stream().filter(l -> l.endsWith("= true")).count();
                long history = t.stream().filter(l -> l.startsWith("history ")).count();
                System.out.printf("MATRIX seed=%d %-40s decisions=%d cas hits=%d history rows=%d%n", seed, db,
                        t.size(), hits, history);
                if (reference == null) {
                    reference = t;
                    referenceCase = db.toString();
                    assertTrue(hits > 10 && history > 10, "the script must move clusters: " + t);
                } else {
                    assertEquals(reference, t, db + " decided differently from " + referenceCase);
                }
            }
        }
    }
}
