// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** One {@code mshost} row as {@code ClusterManagerImpl} writes it at start and at every heartbeat. */
public final class ServerInsert {
    private final ConnectionOpener source;

    private final long msid;
    private long runid = 1;
    private String state = "Up";
    private String name;
    private long heartbeatAgeSeconds;
    private boolean removed;

    ServerInsert(ConnectionOpener source, long msid) {
        this.source = source;
        this.msid = msid;
    }

    public ServerInsert runid(long run) {
        this.runid = run;
        return this;
    }

    /** Up, Down, PreparingForMaintenance, Maintenance, PreparingForShutDown, ReadyToShutDown, ShuttingDown. */
    public ServerInsert state(String msState) {
        this.state = msState;
        return this;
    }

    public ServerInsert name(String hostName) {
        this.name = hostName;
        return this;
    }

    /** The last heartbeat this many seconds ago, by the database's clock. */
    public ServerInsert heartbeatAge(long seconds) {
        this.heartbeatAgeSeconds = seconds;
        return this;
    }

    /** Removed (an operator deleted the server, or CloudStack removed a departed one). */
    public ServerInsert removed(boolean soft) {
        this.removed = soft;
        return this;
    }

    public void insert() throws SQLException {
        try (Connection c = source.open()) {
            String now = RowWriter.utcNow(c);
            Map<String, String> times = new LinkedHashMap<>();
            times.put("last_update", "TIMESTAMPADD(SECOND, " + (-heartbeatAgeSeconds) + ", " + now + ")");
            if (removed) {
                times.put("removed", now);
            }
            RowWriter.insertRow(c, "mshost", row(), times);
        }
    }

    private Map<String, Object> row() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("msid", msid);
        row.put("runid", runid);
        row.put("name", name != null ? name : "ms-" + msid);
        row.put("uuid", UUID.randomUUID().toString());
        row.put("state", state);
        row.put("version", CloudStackRows.RELEASE);
        row.put("service_ip", "127.0.0.1");
        row.put("service_port", 9090);
        row.put("alert_count", 0);
        return row;
    }
}
