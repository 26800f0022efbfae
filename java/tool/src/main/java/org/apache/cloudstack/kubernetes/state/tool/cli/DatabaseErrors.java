// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.sql.SQLException;
import java.util.Locale;

/** Why a database step failed, in the operator's words: one short clause, never a secret. */
final class DatabaseErrors {
    /** H2: a database that IFEXISTS=TRUE would have had to create; not found. */
    private static final int H2_NOT_FOUND_IF_EXISTS = 90146;
    private static final int H2_NOT_FOUND = 90013;
    private static final int H2_WRONG_USER_OR_PASSWORD = 28000;
    private static final int MYSQL_ACCESS_DENIED = 1045;
    private static final int MYSQL_DB_ACCESS_DENIED = 1044;
    private static final int MYSQL_UNKNOWN_DATABASE = 1049;

    private DatabaseErrors() {
    }

    /** The reason of a failure, from its first SQLException (else the failure itself). */
    static String reason(Throwable failure) {
        SQLException sql = null;
        for (Throwable t = failure; t != null && sql == null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                sql = s;
            }
        }
        if (sql == null) {
            return text(failure);
        }
        int code = sql.getErrorCode();
        String state = sql.getSQLState() == null ? "" : sql.getSQLState();
        if (code == MYSQL_ACCESS_DENIED || code == H2_WRONG_USER_OR_PASSWORD || state.equals("28000")) {
            return "access denied (wrong user or password)";
        }
        if (code == MYSQL_DB_ACCESS_DENIED) {
            return "access denied to the database (it does not exist, or the user has no grants on it)";
        }
        if (code == MYSQL_UNKNOWN_DATABASE || code == H2_NOT_FOUND_IF_EXISTS || code == H2_NOT_FOUND) {
            return "no such database (the tool never creates one)";
        }
        if (state.startsWith("08")) {
            return "cannot reach the database server (" + network(sql) + ")";
        }
        return text(sql);
    }

    /** What the network said, when a socket failed below the driver; else the driver's first sentence. */
    private static String network(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return "connection refused";
            }
            if (t instanceof java.net.UnknownHostException) {
                return "unknown host " + text(t);
            }
            if (t instanceof java.net.SocketTimeoutException) {
                return "timed out";
            }
        }
        String m = text(e);
        int dot = m.indexOf(". ");
        return dot > 0 ? m.substring(0, dot) : m;
    }

    /** A failure's message on one line (or its kind), masked. */
    static String text(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            return t.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        }
        return Secrets.mask(m.replaceAll("\\s+", " ").strip());
    }
}
