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
 */
public record ProcessOptions(List<String> jdbcUrls, int pauses, long heartbeatThresholdMillis) {
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
        if (heartbeatThresholdMillis < 1000) {
            throw new IllegalArgumentException("the heartbeat threshold must be at least 1000 ms");
        }
    }

    /** The URL server {@code index} writes on. */
    String urlOf(int index) {
        return jdbcUrls.get(index % jdbcUrls.size());
    }
}
