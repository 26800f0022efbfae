// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcConnectionPool;
import org.mariadb.jdbc.Driver;
import org.mariadb.jdbc.MariaDbPoolDataSource;

/** The connection pool of a simulation's database: bounded, lazy, the credentials never in URL text. */
final class SimulationPool {
    private SimulationPool() {
    }

    /** A pool of at most {@code connections}, opened as they are asked for (H2's pool is lazy). */
    static DataSource open(String url, String user, String password, int connections) throws SQLException {
        if (url.startsWith("jdbc:h2:")) {
            JdbcConnectionPool h2 = JdbcConnectionPool.create(url, user == null ? "" : user,
                    password == null ? "" : password);
            h2.setMaxConnections(connections);
            return h2;
        }
        if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
            String poolUrl = url.replaceFirst("^jdbc:mysql:", "jdbc:mariadb:");
            String account = user;
            // The credentials as properties, not URL text (a password with '&' or '%' stays whole);
            // the pool then takes the user from there too.
            if (password != null) {
                UrlParameter inUrl = UrlParameter.take(poolUrl, "user");
                poolUrl = inUrl.url();
                account = account != null ? account : inUrl.value();
            }
            probe(poolUrl, account, password);
            // minPoolSize defaults to maxPoolSize in Connector/J, which opens them all at once: a few
            // server processes then take a stock MariaDB's max_connections (151) before they start.
            poolUrl += (poolUrl.contains("?") ? "&" : "?") + "maxPoolSize=" + connections + "&minPoolSize=1";
            MariaDbPoolDataSource pool = new MariaDbPoolDataSource();
            pool.setUrl(poolUrl);
            if (account != null) {
                pool.setUser(account);
            }
            if (password != null) {
                pool.setPassword(password);
            }
            return pool;
        }
        throw new IllegalArgumentException("simulate supports jdbc:h2:, jdbc:mariadb: and jdbc:mysql: URLs, not " + url);
    }

    /**
     * One plain connection, closed at once: the pool answers any failed connect only after its whole
     * connectTimeout (30 s), where a wrong password or a server that is down is known at once.
     */
    private static void probe(String url, String user, String password) throws SQLException {
        Properties credentials = new Properties();
        if (user != null) {
            credentials.setProperty("user", user);
        }
        if (password != null) {
            credentials.setProperty("password", password);
        }
        Connection probe = new Driver().connect(url, credentials);
        if (probe != null) { // null: a URL the driver does not take, which the pool then says
            probe.close();
        }
    }

    static void close(DataSource pool) {
        if (pool instanceof JdbcConnectionPool) {
            ((JdbcConnectionPool) pool).dispose();
        } else if (pool instanceof MariaDbPoolDataSource) {
            ((MariaDbPoolDataSource) pool).close();
        }
    }
}
