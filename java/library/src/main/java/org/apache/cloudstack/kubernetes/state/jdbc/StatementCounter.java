// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * A {@link ConnectionSource} that wraps another and counts the SQL statements executed through
 * its connections: every {@code execute*} call of a {@link Statement}, {@link PreparedStatement}
 * or {@link CallableStatement} they create counts once (a batch counts once). The wrapping is a
 * {@link Proxy} around the real driver objects, so the statements really run.
 *
 * <p>Used to check that a status scanner pass issues a number of statements that does not grow
 * with the number of clusters. {@link #statements()} keeps the SQL text of each execution.
 */
final class StatementCounter implements ConnectionSource {
    private final ConnectionSource delegate;
    private final AtomicInteger count = new AtomicInteger();
    private final List<String> statements = Collections.synchronizedList(new ArrayList<>());

    public StatementCounter(ConnectionSource delegate) {
        this.delegate = Arguments.required(delegate, "delegate");
    }

    @Override
    public Connection open() throws java.sql.SQLException {
        Connection real = delegate.open();
        return (Connection) Proxy.newProxyInstance(StatementCounter.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new ConnectionHandler(real));
    }

    /** Statements executed since creation or the last {@link #reset()}. */
    public int count() {
        return count.get();
    }

    /** The SQL text of those statements, in order. */
    public List<String> statements() {
        synchronized (statements) {
            return List.copyOf(statements);
        }
    }

    /** How many of the recorded statements contain this text (case-insensitive). */
    public long countContaining(String text) {
        String needle = text.toLowerCase(java.util.Locale.ROOT);
        return statements().stream().filter(s -> s.toLowerCase(java.util.Locale.ROOT).contains(needle)).count();
    }

    /** Starts counting from zero again. */
    public void reset() {
        synchronized (statements) {
            count.set(0);
            statements.clear();
        }
    }

    private void record(String sql) {
        synchronized (statements) {
            count.incrementAndGet();
            statements.add(sql == null ? "<null>" : sql);
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private final class ConnectionHandler implements InvocationHandler {
        private final Connection real;

        ConnectionHandler(Connection real) {
            this.real = real;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("unwrap") && args != null && args.length == 1 && args[0] == Connection.class) {
                return proxy;
            }
            Object result = StatementCounter.invoke(real, method, args);
            if (result instanceof Statement) {
                String sql = (args != null && args.length > 0 && args[0] instanceof String) ? (String) args[0] : null;
                Class<?> type = result instanceof CallableStatement ? CallableStatement.class
                        : result instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
                return Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] {type},
                        new StatementHandler((Statement) result, sql, proxy));
            }
            return result;
        }
    }

    private final class StatementHandler implements InvocationHandler {
        private final Statement real;
        private final String preparedSql;
        private final Object connectionProxy;

        StatementHandler(Statement real, String preparedSql, Object connectionProxy) {
            this.real = real;
            this.preparedSql = preparedSql;
            this.connectionProxy = connectionProxy;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("getConnection")) {
                return connectionProxy;
            }
            if (name.startsWith("execute")) {
                String sql = (args != null && args.length > 0 && args[0] instanceof String) ? (String) args[0]
                        : preparedSql;
                record(name.equals("executeBatch") || name.equals("executeLargeBatch") ? "BATCH " + sql : sql);
            }
            return StatementCounter.invoke(real, method, args);
        }
    }
}
