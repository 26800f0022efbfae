// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;

/** One real connection handed out as a pool hands out its connections: {@code close()} keeps it open. */
public final class SharedConnection {
    private SharedConnection() {
    }

    /**
     * A source whose every {@code open()} gives {@code real}. With {@code returnToPool}, a close
     * rolls back an open transaction and restores auto-commit, as a pool's return does; without,
     * the caller's transaction stays open (the caller commits).
     */
    public static ConnectionOpener of(Connection real, boolean returnToPool) {
        Connection handle = (Connection) Proxy.newProxyInstance(SharedConnection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        if (returnToPool && !real.getAutoCommit()) {
                            real.rollback();
                            real.setAutoCommit(true);
                        }
                        return null;
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return () -> handle;
    }
}
