package com.cloud.utils.db;

import java.sql.Connection;
import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;

/**
 * A stand-in of CloudStack's {@code TransactionLegacy}, with its semantics where the snippets rely
 * on them: one transaction per thread ({@link #currentTxn()}); {@link #start()} begins it or, when
 * one is already started (an outer {@code Transaction.execute}), nests in it; {@link #commit()}
 * commits only when the outermost start ends; {@link #getStandaloneConnectionWithException()} is a
 * connection of the pool outside the thread's transaction, closed by the caller.
 */
public final class TransactionLegacy implements AutoCloseable {
    private static volatile ConnectionSource pool;
    private static final ThreadLocal<TransactionLegacy> CURRENT = new ThreadLocal<>();

    private Connection connection;
    private int depth;

    private TransactionLegacy() {
    }

    /** Stand-in only: the management server's connection pool. */
    public static void useConnections(ConnectionSource connections) {
        pool = connections;
    }

    /** The thread's transaction context. */
    public static TransactionLegacy currentTxn() {
        TransactionLegacy txn = CURRENT.get();
        if (txn == null) {
            txn = new TransactionLegacy();
            CURRENT.set(txn);
        }
        return txn;
    }

    public static Connection getStandaloneConnectionWithException() throws SQLException {
        return pool.open();
    }

    public void start() {
        depth++;
    }

    /** The connection of this thread's transaction (in manual-commit mode while one is started). */
    public Connection getConnection() throws SQLException {
        if (connection == null) {
            connection = pool.open();
        }
        if (depth > 0 && connection.getAutoCommit()) {
            connection.setAutoCommit(false);
        }
        return connection;
    }

    /** Ends one start(); the outermost commits. */
    public boolean commit() {
        if (depth == 0) {
            throw new IllegalStateException("commit without start");
        }
        if (--depth > 0 || connection == null) {
            return true;
        }
        try {
            connection.commit();
            connection.setAutoCommit(true);
            return true;
        } catch (SQLException e) {
            throw new IllegalStateException("commit failed", e);
        }
    }

    /** Rolls the whole transaction back, as CloudStack's does. */
    public void rollback() {
        depth = 0;
        if (connection == null) {
            return;
        }
        try {
            connection.rollback();
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw new IllegalStateException("rollback failed", e);
        }
    }

    /** Ends the thread's context (CloudStack: at the end of the request or task). */
    @Override
    public void close() {
        CURRENT.remove();
        if (connection != null) {
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
                connection.close();
            } catch (SQLException e) {
                throw new IllegalStateException("close failed", e);
            } finally {
                connection = null;
            }
        }
    }
}
