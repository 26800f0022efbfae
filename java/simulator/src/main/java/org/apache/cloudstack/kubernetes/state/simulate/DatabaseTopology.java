// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.SQLException;
import java.util.List;

/**
 * Where a run's servers find their database: an embedded H2 (no URL), one server, or several URLs
 * (Galera nodes: server i writes on URL i mod n, the first is prepared and judged), and what a
 * run may do to the nodes ({@code nodeKills} through {@code nodeHook}, scripts/galera.sh).
 */
record DatabaseTopology(List<String> urls, String user, String password, int nodeKills, String nodeHook) {
    DatabaseTopology {
        urls = List.copyOf(urls);
    }

    /** The database of a threads run: its one URL, or an embedded H2. */
    static DatabaseTopology of(SimulationConfig config) {
        return new DatabaseTopology(config.jdbcUrl() == null ? List.of() : List.of(config.jdbcUrl()), config.user(),
                config.password(), 0, null);
    }

    /** The databases of a processes run. */
    static DatabaseTopology of(SimulationConfig config, ProcessOptions options) {
        return new DatabaseTopology(options.jdbcUrls(), config.user(), config.password(), options.dbNodeKills(),
                options.dbNodeHook());
    }

    boolean severalNodes() {
        return urls.size() > 1;
    }

    /** The URL server {@code index} writes on. */
    String urlOf(int index) {
        return urls.get(index % urls.size());
    }

    /** The database the run prepares and judges, with a pool of at most {@code connections}. */
    SimulationDatabase open(int connections) throws SQLException {
        return urls.isEmpty() ? SimulationDatabase.embedded(connections)
                : SimulationDatabase.attach(urls.get(0), user, password, connections);
    }

    /** The run's database as the report names it (a password masked). */
    String describe(SimulationDatabase db) {
        return db.describe() + (severalNodes() ? " and " + (urls.size() - 1) + " more node(s)" : "");
    }

    /** Each node's certification failures so far (Galera), or null with one node. */
    long[] certifications() {
        return severalNodes() ? GaleraCertifications.read(urls, user, password) : null;
    }

    /** The certification failures of the run since {@code before} (-1 when a node does not answer). */
    long certificationFailuresSince(long[] before) {
        return GaleraCertifications.since(before, urls, user, password);
    }
}
