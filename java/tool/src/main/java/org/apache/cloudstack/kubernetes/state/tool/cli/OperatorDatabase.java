// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.cloudstack.kubernetes.state.tool.dbprops.DbSettings;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;

/**
 * The database an operator's command runs on: the source, then each replica (database HA), the
 * first that answers kept for the whole command. A command without {@code --apply} opens its
 * connections read-only, and on H2 never creates a database (nor, for a file, writes to it).
 */
final class OperatorDatabase {
    /** Bounds a connection attempt where the URL sets none (the drivers' own default is to wait on). */
    private static final String CONNECT_TIMEOUT_MS = "15000";

    private final List<String> urls;
    /** The URLs as given, for messages (what the tool added is its own business). */
    private final List<String> givenUrls;
    /** The URL as the server builds it (with database HA: every host in one URL), for messages. */
    private final String serverUrl;
    private final String user;
    /** The user for messages: the one given, or the one the URL names. */
    private final String shownUser;
    private final String password;
    private final boolean writes;
    /** The index of the URL that answered. */
    private volatile int connected;

    OperatorDatabase(DbSettings settings, boolean writes) {
        this.givenUrls = settings.connectUrls();
        this.serverUrl = settings.url();
        this.urls = givenUrls.stream().map(u -> forTool(u, writes)).toList();
        this.user = settings.user();
        this.shownUser = user != null ? user : userOf(givenUrls.get(0));
        this.password = settings.password();
        this.writes = writes;
        this.connected = 0;
        Secrets.register(password);
        Secrets.registerUrl(settings.url());
        urls.forEach(Secrets::registerUrl);
    }

    /** The URL the tool opens: H2 never creates a database, and read-only opens a file read-only. */
    static String forTool(String url, boolean writes) {
        String upper = url.toUpperCase(Locale.ROOT);
        if (upper.startsWith("JDBC:H2:")) {
            String out = url;
            if (!upper.contains(";IFEXISTS=")) {
                out += ";IFEXISTS=TRUE";
            }
            boolean inMemory = upper.startsWith("JDBC:H2:MEM:");
            if (!writes && !inMemory && !upper.contains(";ACCESS_MODE_DATA=")) {
                out += ";ACCESS_MODE_DATA=r";
            }
            return out;
        }
        if (upper.startsWith("JDBC:MYSQL:") || upper.startsWith("JDBC:MARIADB:")) {
            // The server's reconnection settings would make a failed connect sleep and retry for an hour
            // (autoReconnect with initialTimeout=3600): the tool tries each host once, then says why.
            String out = url.replaceAll("(?i)(?<=[?&])(autoReconnect|autoReconnectForPools|initialTimeout|maxReconnects)"
                    + "=[^&]*(&|$)", "").replaceAll("[?&]$", "");
            out += (out.contains("?") ? "&" : "?") + "autoReconnect=false";
            if (!upper.contains("CONNECTTIMEOUT=")) {
                out += "&connectTimeout=" + CONNECT_TIMEOUT_MS;
            }
            return out;
        }
        return url;
    }

    /** "jdbc:mysql://host:3306/cloud as cloud": where, and as whom (never a password or the parameters). */
    String describe() {
        return describe(connected);
    }

    private String describe(int index) {
        return Secrets.displayUrl(givenUrls.get(index)) + (shownUser == null ? "" : " as " + shownUser);
    }

    /** The user a URL names (user=..., or user:password@ in its authority), for messages; null when none. */
    static String userOf(String url) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)[?&;]user=([^&;]*)").matcher(url);
        if (m.find()) {
            return m.group(1);
        }
        m = java.util.regex.Pattern.compile("//([^/:@\\s]+)(:[^@/\\s]*)?@").matcher(url);
        return m.find() ? m.group(1) : null;
    }

    /** Does the URL carry credentials: user= or password= among its parameters, or user@ in its authority. */
    static boolean namesCredentials(String url) {
        return userOf(url) != null
                || java.util.regex.Pattern.compile("(?i)[?&;(,]\\s*(user|password)\\s*=").matcher(url).find();
    }

    /**
     * The first connection: the source, else each replica in turn; says on {@code err} when a
     * replica answered. Fails with one line naming the database and why.
     */
    Connection connect(PrintWriter err) {
        String driverless = null;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            String url = urls.get(i);
            String shown = i == 0 ? "" : Secrets.displayUrl(givenUrls.get(i)) + ": ";
            try {
                DriverManager.getDriver(url);
            } catch (SQLException e) {
                driverless = url;
                continue;
            }
            try {
                Connection c = open(url);
                connected = i;
                if (i > 0) {
                    err.println("cks-state: the source did not answer (" + String.join("; ", failures)
                            + "); using replica " + Secrets.displayUrl(givenUrls.get(i)));
                    err.flush();
                }
                return c;
            } catch (SQLException e) {
                failures.add(shown + DatabaseErrors.reason(e));
            } catch (RuntimeException e) { // some drivers throw these on a URL they cannot read
                failures.add(shown + "the driver cannot read this URL (" + e.getClass().getSimpleName() + ")");
            }
        }
        if (failures.isEmpty() && driverless != null) {
            throw new ToolFailure("no JDBC driver for " + scheme(driverless) + " URLs: the tool carries MySQL Connector/J"
                    + " (jdbc:mysql), the MariaDB driver (jdbc:mariadb) and H2 (jdbc:h2)");
        }
        String hosts = urls.size() > 1 ? " (the source, then " + (urls.size() - 1) + " replica(s))" : "";
        throw new ToolFailure("connecting to " + Secrets.displayUrl(serverUrl) + (shownUser == null ? "" : " as " + shownUser)
                + hosts + ": " + String.join("; ", failures));
    }

    /** A connection to the database {@link #connect} reached. */
    Connection open() throws SQLException {
        return open(urls.get(connected));
    }

    ConnectionSource source() {
        return this::open;
    }

    private Connection open(String url) throws SQLException {
        Connection c = user == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, user, password);
        if (!writes) {
            try {
                c.setReadOnly(true);
                // The drivers' read-only flag need not reach the server: the session says so itself.
                if (!c.getMetaData().getDatabaseProductName().toUpperCase(Locale.ROOT).contains("H2")) {
                    try (java.sql.Statement st = c.createStatement()) {
                        st.execute("SET SESSION TRANSACTION READ ONLY");
                    }
                }
            } catch (SQLException e) {
                c.close();
                throw e;
            }
        }
        return c;
    }

    /** The driver part of a JDBC URL ({@code jdbc:mysql}), for messages. */
    static String scheme(String url) {
        String[] parts = url.split(":", 3);
        return parts.length >= 2 ? parts[0] + ":" + parts[1] : "this";
    }
}
