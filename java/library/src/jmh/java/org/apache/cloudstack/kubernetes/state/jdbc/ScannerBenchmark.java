// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.testkit.SharedConnection;
import org.apache.cloudstack.kubernetes.state.testkit.StandInSchema;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * One orphan-recovery pass of {@link ClusterStateScanner} end to end on MariaDB, against
 * a per-cluster implementation written the way naive code would do it: list the clusters, read
 * each one, query the jobs of each one in an operation's state, fail it when it has none.
 *
 * <p>Data per size N: N CloudManaged clusters; 1% stuck (an operation's state, no job), 4% busy
 * (an operation's state with an IN_PROGRESS job), the rest Running (80%) or Stopped; two finished
 * jobs per cluster as history. Each timed pass starts from the same data (the stuck clusters are
 * put back, uncounted), after one untimed pass per implementation. Reported: the median wall time
 * and the statements of a pass (counted by {@link StatementCounter}).
 *
 * <p>Usage: {@code ScannerBenchmark <jdbc-url> <sizes, e.g. 1000,10000> <timed passes> [summary.md]}.
 * The database is emptied: point it at a throwaway server only.
 */
public final class ScannerBenchmark {
    private static final int ROWS_PER_INSERT = 1_000;
    private static final String JOB_CMD = "org.apache.cloudstack.api.command.user.kubernetes.cluster.ScaleKubernetesClusterCmd";

    private final String url;
    private final ClusterStateMachine<State, Event> machine = ClusterStateMachine.bind(State.class, Event.class);
    private final List<State> orphanStates = new ArrayList<>(machine.orphanStates());

    private ScannerBenchmark(String url) {
        this.url = url;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: ScannerBenchmark <jdbc-url> <sizes> <timed passes> [summary.md]");
            System.exit(2);
        }
        int[] sizes = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        int passes = Integer.parseInt(args[2]);
        String summary = new ScannerBenchmark(args[0]).run(sizes, passes);
        System.out.println();
        System.out.println(summary);
        if (args.length > 3) {
            Path out = Paths.get(args[3]);
            if (out.getParent() != null) {
                Files.createDirectories(out.getParent());
            }
            Files.writeString(out, summary, StandardCharsets.UTF_8);
        }
    }

    private String run(int[] sizes, int passes) throws SQLException, IOException {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Scanner pass on MariaDB: median of %d timed passes%n%n", passes));
        b.append("| clusters | stuck | scanner ms | scanner statements | statements - updates"
                + " | per-cluster ms | per-cluster statements | speed-up |\n");
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<String> verdicts = new ArrayList<>();
        int fixedStatements = -1;
        boolean constant = true;
        try (Connection admin = DriverManager.getConnection(url)) {
            ConnectionSource pool = pooled(url);
            for (int n : sizes) {
                Map<State, List<Long>> stuck = populate(admin, n);
                int stuckCount = stuck.values().stream().mapToInt(List::size).sum();
                ClusterStateScanner<State, Event> scanner =
                        new ClusterStateScanner<>(new KubernetesClusterStateDao<>(machine, pool), pool,
                                () -> null);
                long[] scannerNs = new long[passes];
                long[] naiveNs = new long[passes];
                int scannerStatements = 0;
                int naiveStatements = 0;
                for (int pass = -1; pass < passes; pass++) { // pass -1: untimed warm-up
                    reset(admin, stuck);
                    long t0 = System.nanoTime();
                    RecoveryResult<State> r = scanner.recoverOrphanedOperationStates();
                    long t1 = System.nanoTime();
                    check("scanner", r.recoveredIds().size(), stuckCount);
                    scannerStatements = r.statements();

                    reset(admin, stuck);
                    StatementCounter counter = new StatementCounter(pool);
                    long t2 = System.nanoTime();
                    int recovered = perClusterPass(counter);
                    long t3 = System.nanoTime();
                    check("per-cluster", recovered, stuckCount);
                    naiveStatements = counter.count();
                    if (pass >= 0) {
                        scannerNs[pass] = t1 - t0;
                        naiveNs[pass] = t3 - t2;
                    }
                }
                double scannerMs = median(scannerNs) / 1e6;
                double naiveMs = median(naiveNs) / 1e6;
                int fixed = scannerStatements - stuckCount;
                constant &= fixedStatements < 0 || fixed == fixedStatements;
                fixedStatements = fixed;
                b.append(String.format(Locale.ROOT, "| %,d | %,d | %.1f | %,d | %d | %.1f | %,d | %.1fx |%n", n,
                        stuckCount, scannerMs, scannerStatements, fixed, naiveMs, naiveStatements, naiveMs / scannerMs));
                System.out.printf(Locale.ROOT, "scanner %,d clusters: %.1f ms, %d statements; per-cluster %.1f ms,"
                        + " %d statements%n", n, scannerMs, scannerStatements, naiveMs, naiveStatements);
                if (n == 10_000) {
                    verdicts.add("| scanner pass >= 10x faster than the per-cluster implementation at 10k clusters | "
                            + (naiveMs / scannerMs >= 10 ? "met" : "MISSED") + String.format(Locale.ROOT,
                                    " | %.1f ms vs %.1f ms = %.1fx |", scannerMs, naiveMs, naiveMs / scannerMs));
                }
            }
        }
        verdicts.add(0, "| scanner statements do not grow with the clusters (plus one update per cluster moved) | "
                + (constant ? "met" : "MISSED") + " | " + fixedStatements + " + one per stuck cluster at every size |");
        b.append("\n| target | verdict | numbers (medians) |\n|---|---|---|\n");
        for (String v : verdicts) {
            b.append(v).append('\n');
        }
        return b.toString();
    }

    /**
     * The naive pass: one query lists the clusters, then per cluster one read and, for a cluster
     * in an operation's state, one job query and (no job) one compare-and-set. Auto-commit.
     */
    private int perClusterPass(ConnectionSource source) throws SQLException {
        Set<String> orphanNames = new HashSet<>();
        for (State s : orphanStates) {
            orphanNames.add(s.name());
        }
        int recovered = 0;
        try (Connection c = source.open()) {
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM kubernetes_cluster WHERE removed IS NULL"
                    + " AND cluster_type = '" + ClusterStateScanner.CLOUD_MANAGED + "' ORDER BY id");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            try (PreparedStatement read = c.prepareStatement("SELECT state FROM kubernetes_cluster WHERE id = ?");
                    PreparedStatement jobs = c.prepareStatement("SELECT COUNT(*) FROM async_job WHERE instance_type = '"
                            + ClusterCommandSet.RESOURCE_TYPE + "' AND instance_id = ? AND job_status = "
                            + AsyncJobLookup.IN_PROGRESS);
                    PreparedStatement cas = c.prepareStatement(KubernetesClusterStateDao.CAS_SQL)) {
                for (long id : ids) {
                    read.setLong(1, id);
                    String state;
                    try (ResultSet rs = read.executeQuery()) {
                        if (!rs.next()) {
                            continue;
                        }
                        state = rs.getString(1).strip();
                    }
                    if (!orphanNames.contains(state)) {
                        continue;
                    }
                    jobs.setLong(1, id);
                    long inProgress;
                    try (ResultSet rs = jobs.executeQuery()) {
                        rs.next();
                        inProgress = rs.getLong(1);
                    }
                    if (inProgress > 0) {
                        continue;
                    }
                    State from = State.valueOf(state);
                    State to = machine.nextState(from, Event.OperationFailed);
                    if (to == null) {
                        continue;
                    }
                    cas.setString(1, to.name());
                    cas.setLong(2, id);
                    cas.setString(3, from.name());
                    recovered += cas.executeUpdate();
                }
            }
        }
        return recovered;
    }

    /** Empties the tables and writes N clusters and their jobs; returns the stuck ids by state. */
    private Map<State, List<Long>> populate(Connection c, int n) throws SQLException {
        long start = System.nanoTime();
        StandInSchema.createStandIn(c);
        try (Statement st = c.createStatement()) {
            st.execute("SET FOREIGN_KEY_CHECKS = 0");
            for (String table : StandInSchema.TABLES) {
                st.execute("TRUNCATE TABLE " + table);
            }
            st.execute("SET FOREIGN_KEY_CHECKS = 1");
        }
        SplittableRandom random = new SplittableRandom(n);
        Map<State, List<Long>> stuck = new EnumMap<>(State.class);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            Rows clusters = new Rows(st, "INSERT INTO kubernetes_cluster (id, uuid, name, state, created, cluster_type,"
                    + " control_node_count, node_count) VALUES ");
            Rows jobs = new Rows(st, "INSERT INTO async_job (uuid, job_status, instance_type, instance_id, job_cmd,"
                    + " created) VALUES ");
            long jobUuid = 0;
            for (long id = 1; id <= n; id++) {
                State state;
                boolean busy = false;
                int bucket = (int) (id % 100);
                if (bucket == 0) { // 1% stuck
                    state = orphanStates.get(random.nextInt(orphanStates.size()));
                    stuck.computeIfAbsent(state, k -> new ArrayList<>()).add(id);
                } else if (bucket <= 4) { // 4% busy: an operation with its job
                    state = orphanStates.get(random.nextInt(orphanStates.size()));
                    busy = true;
                } else {
                    state = bucket <= 84 ? State.Running : State.Stopped;
                }
                clusters.add("(" + id + ", 'c-" + id + "', 'cluster-" + id + "', '" + state.name()
                        + "', NOW(), 'CloudManaged', 1, 3)");
                for (int h = 0; h < 2; h++) { // finished jobs: history the scanner must not scan per cluster
                    jobs.add("('j-" + jobUuid++ + "', 1, 'KubernetesCluster', " + id + ", '" + JOB_CMD + "', NOW())");
                }
                if (busy) {
                    jobs.add("('j-" + jobUuid++ + "', 0, 'KubernetesCluster', " + id + ", '" + JOB_CMD + "', NOW())");
                }
            }
            clusters.flush();
            jobs.flush();
            c.commit();
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM async_job")) {
                rs.next();
                System.out.printf(Locale.ROOT, "populated %,d clusters and %,d jobs in %.1f s%n", n, rs.getLong(1),
                        (System.nanoTime() - start) / 1e9);
            }
            st.execute("ANALYZE TABLE kubernetes_cluster, async_job");
        } finally {
            c.setAutoCommit(autoCommit);
        }
        return stuck;
    }

    /** Puts the stuck clusters back in their operation states (not counted, not timed). */
    private static void reset(Connection c, Map<State, List<Long>> stuck) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (Map.Entry<State, List<Long>> e : stuck.entrySet()) {
                StringBuilder in = new StringBuilder();
                for (long id : e.getValue()) {
                    in.append(in.length() == 0 ? "" : ",").append(id);
                }
                st.executeUpdate("UPDATE kubernetes_cluster SET state = '" + e.getKey().name() + "' WHERE id IN ("
                        + in + ")");
            }
        }
    }

    private static void check(String what, int recovered, int expected) {
        if (recovered != expected) {
            throw new IllegalStateException(what + " recovered " + recovered + " clusters, expected " + expected);
        }
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2.0;
    }

    /**
     * One long-lived connection handed out like a pool's, so neither implementation pays a
     * connection set-up per pass (the management server pools).
     */
    private static ConnectionSource pooled(String url) throws SQLException {
        return SharedConnection.of(DriverManager.getConnection(url), true)::open;
    }

    /** Multi-row INSERTs of ROWS_PER_INSERT rows each. */
    private static final class Rows {
        private final Statement statement;
        private final String prefix;
        private final StringBuilder sql = new StringBuilder();
        private int rows;

        Rows(Statement statement, String prefix) {
            this.statement = statement;
            this.prefix = prefix;
        }

        void add(String values) throws SQLException {
            sql.append(rows == 0 ? prefix : ", ").append(values);
            if (++rows == ROWS_PER_INSERT) {
                flush();
            }
        }

        void flush() throws SQLException {
            if (rows > 0) {
                statement.executeUpdate(sql.toString());
                sql.setLength(0);
                rows = 0;
            }
        }
    }
}
