// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Connections that let another writer move a cluster right before the library's next
 * compare-and-set: the interloper runs once, when the first {@code UPDATE kubernetes_cluster SET state}
 * is prepared. Hooks the write itself, not a count of connections, so a change in how many reads
 * come first does not move the race.
 */
final class RacingWrites {
    /** What the other writer does (a plain SQL update of the row). */
    @FunctionalInterface
    interface Interloper {
        void run() throws SQLException;
    }

    private RacingWrites() {
    }

    static ConnectionSource before(ConnectionSource real, Interloper interloper) {
        AtomicBoolean fired = new AtomicBoolean();
        return () -> {
            Connection c = real.open();
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
                                && sql.toUpperCase(Locale.ROOT).startsWith("UPDATE KUBERNETES_CLUSTER SET STATE")
                                && fired.compareAndSet(false, true)) {
                            interloper.run();
                        }
                        try {
                            return method.invoke(c, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
    }
}
