// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;

/**
 * A connection source that records every compare-and-set of the cluster state the library issues
 * through it ("h" for a hit, "m" for a miss), in order, whichever thread issues it.
 */
final class ObservedWrites implements ConnectionSource {
    private final ConnectionSource inner;
    private final List<String> writes = new ArrayList<>();

    ObservedWrites(ConnectionSource inner) {
        this.inner = inner;
    }

    @Override
    public Connection open() throws java.sql.SQLException {
        Connection c = inner.open();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                forward(c, (m, args, result) -> {
                    boolean cas = m.getName().equals("prepareStatement") && args.length >= 1
                            && (KubernetesClusterStateDao.CAS_SQL.equals(args[0])
                                    || KubernetesClusterStateDao.FENCED_CAS_SQL.equals(args[0]));
                    return cas ? observed((PreparedStatement) result) : result;
                }));
    }

    /** The writes since the last call, and forgets them. */
    synchronized List<String> take() {
        List<String> out = List.copyOf(writes);
        writes.clear();
        return out;
    }

    private synchronized void record(int rows) {
        writes.add(rows > 0 ? "h" : "m");
    }

    private PreparedStatement observed(PreparedStatement ps) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, forward(ps, (m, args, result) -> {
                    if (m.getName().equals("executeUpdate") && (args == null || args.length == 0)) {
                        record((Integer) result);
                    }
                    return result;
                }));
    }

    /** What to do with a call's result. */
    @FunctionalInterface
    private interface After {
        Object apply(Method m, Object[] args, Object result) throws Exception;
    }

    private static InvocationHandler forward(Object target, After after) {
        return (proxy, m, args) -> {
            Object result;
            try {
                result = m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return after.apply(m, args, result);
        };
    }
}
