// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.List;

/**
 * What {@code simulate --processes} adds to a {@link SimulationConfig}.
 *
 * @param jdbcUrls               the databases; server i writes on URL i mod n (Galera nodes), the first
 *                               is prepared
 * @param pauses                 SIGSTOPs of a server for longer than the heartbeat threshold
 * @param heartbeatThresholdMillis the {@code cluster.heartbeat.threshold} the run sets (short: a pause is
 *                               past it in seconds)
 * @param dbNodeKills            database nodes killed mid-run (and started again) with {@code dbNodeHook}
 * @param dbNodeHook             a script taking {@code kill-node N} and {@code start-node N} (N: 1.. the
 *                               URL's position), such as scripts/galera.sh; null without node kills
 */
public record ProcessOptions(List<String> jdbcUrls, int pauses, long heartbeatThresholdMillis, int dbNodeKills,
        String dbNodeHook) {
    /** Without database node kills. */
    public ProcessOptions(List<String> jdbcUrls, int pauses, long heartbeatThresholdMillis) {
        this(jdbcUrls, pauses, heartbeatThresholdMillis, 0, null);
    }

    public ProcessOptions {
        jdbcUrls = List.copyOf(jdbcUrls);
        if (jdbcUrls.isEmpty()) {
            throw new IllegalArgumentException("--processes needs a MariaDB/MySQL database (--jdbc-url): an embedded"
                    + " H2 cannot be shared by several processes");
        }
        for (String url : jdbcUrls) {
            if (!url.startsWith("jdbc:mariadb:") && !url.startsWith("jdbc:mysql:")) {
                throw new IllegalArgumentException("--processes runs on MariaDB/MySQL URLs only, not " + url);
            }
        }
        if (pauses < 0) {
            throw new IllegalArgumentException("--pauses must not be negative");
        }
        if (dbNodeKills < 0) {
            throw new IllegalArgumentException("--db-node-kills must not be negative");
        }
        if (dbNodeKills > 0 && (dbNodeHook == null || jdbcUrls.size() < 2)) {
            throw new IllegalArgumentException("--db-node-kills needs --db-node-hook (such as scripts/galera.sh) and"
                    + " at least two --jdbc-url (the nodes)");
        }
        if (heartbeatThresholdMillis < 1000) {
            throw new IllegalArgumentException("the heartbeat threshold must be at least 1000 ms");
        }
    }

    /** The URL server {@code index} writes on. */
    String urlOf(int index) {
        return jdbcUrls.get(index % jdbcUrls.size());
    }
}
