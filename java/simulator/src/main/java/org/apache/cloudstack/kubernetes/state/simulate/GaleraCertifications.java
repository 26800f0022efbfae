// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

/** A Galera run's certification failures, read from each node's status. */
final class GaleraCertifications {
    private GaleraCertifications() {
    }

    /**
     * Galera's certification failures of this run over every node: the commits that lost to a write
     * certified first on another node, which the library reports as lost races. A node restarted
     * during the run counts from its restart. -1 when a node does not answer.
     */
    static long since(long[] before, List<String> urls, String user, String password) {
        long[] after = read(urls, user, password);
        long sum = 0;
        for (int i = 0; i < after.length; i++) {
            if (after[i] < 0 || before[i] < 0) {
                return -1;
            }
            sum += after[i] >= before[i] ? after[i] - before[i] : after[i];
        }
        return sum;
    }

    /** Each node's {@code wsrep_local_cert_failures} (since it started), -1 for a node that does not answer. */
    static long[] read(List<String> urls, String user, String password) {
        long[] out = new long[urls.size()];
        int i = 0;
        Properties credentials = new Properties();
        if (user != null) {
            credentials.setProperty("user", user);
        }
        if (password != null) {
            credentials.setProperty("password", password);
        }
        for (String url : urls) {
            // One plain connection: a pool is more than a status read needs.
            try (Connection c = DriverManager.getConnection(url.replaceFirst("^jdbc:mysql:", "jdbc:mariadb:"),
                    credentials); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'wsrep_local_cert_failures'")) {
                out[i] = rs.next() ? Long.parseLong(rs.getString(2).strip()) : 0;
            } catch (SQLException | RuntimeException e) {
                out[i] = -1;
            }
            i++;
        }
        return out;
    }
}
