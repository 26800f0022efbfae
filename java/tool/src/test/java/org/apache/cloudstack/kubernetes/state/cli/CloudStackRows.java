package org.apache.cloudstack.kubernetes.state.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** CloudStack-shaped rows for the tool's tests, as a management server writes them. */
final class CloudStackRows {
    static final String SCALE_CMD = "org.apache.cloudstack.api.command.user.kubernetes.cluster.ScaleKubernetesClusterCmd";

    private final Connection c;

    CloudStackRows(Connection c) {
        this.c = c;
    }

    /** A CloudManaged cluster "uuid-NAME" in {@code state}; its id. */
    long cluster(String name, String state) throws SQLException {
        return cluster(name, "uuid-" + name, state, false);
    }

    long cluster(String name, String uuid, String state, boolean removed) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO kubernetes_cluster (uuid, name, state, created, removed,"
                + " cluster_type) VALUES (?, ?, ?, NOW(), " + (removed ? "NOW()" : "NULL") + ", 'CloudManaged')",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, uuid);
            ps.setString(2, name);
            ps.setString(3, state);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** An async job; build it with the setters, then {@link Job#insert()}. */
    Job job() {
        return new Job();
    }

    /** One async_job row: IN_PROGRESS, a scale command, created now, unless set otherwise. */
    final class Job {
        private String cmd = SCALE_CMD;
        private String cmdInfo = "{}";
        private int status;
        private Long instanceId;
        private Long msid;
        private long ageSeconds;
        private Integer resultCode;
        private String result;

        Job cluster(long id) {
            this.instanceId = id;
            return this;
        }

        Job cmdInfo(String json) {
            this.cmdInfo = json;
            return this;
        }

        Job cmd(String jobCmd) {
            this.cmd = jobCmd;
            return this;
        }

        /** job_result_code and job_result, as the job's end wrote them. */
        Job result(Integer code, String text) {
            this.resultCode = code;
            this.result = text;
            return this;
        }

        Job status(int jobStatus) {
            this.status = jobStatus;
            return this;
        }

        Job msid(long server) {
            this.msid = server;
            return this;
        }

        /** Created this many seconds ago, by the database's clock. */
        Job age(long seconds) {
            this.ageSeconds = seconds;
            return this;
        }

        long insert() throws SQLException {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO async_job (job_cmd, job_cmd_info, job_status,"
                    + " instance_type, instance_id, job_init_msid, job_executing_msid, created, last_updated,"
                    + " job_result_code, job_result) VALUES"
                    + " (?, ?, ?, 'KubernetesCluster', ?, ?, ?, TIMESTAMPADD(SECOND, ?, NOW()), NOW(), ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, cmd);
                ps.setString(2, cmdInfo);
                ps.setInt(3, status);
                ps.setObject(4, instanceId);
                ps.setObject(5, msid);
                ps.setObject(6, msid);
                ps.setLong(7, -ageSeconds);
                ps.setObject(8, resultCode);
                ps.setString(9, result);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        }
    }

    void mshost(long msid, String state, long runid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO mshost (msid, runid, name, state, last_update)"
                + " VALUES (?, ?, ?, ?, NOW())")) {
            ps.setLong(1, msid);
            ps.setLong(2, runid);
            ps.setString(3, "ms-" + msid);
            ps.setString(4, state);
            ps.executeUpdate();
        }
    }

    /** A global setting as CloudStack stores it ({@code value} null: unset, {@code default_value} applies). */
    void setting(String name, String value, String defaultValue) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO configuration (category, name, `value`, default_value)"
                + " VALUES ('Advanced', ?, ?, ?)")) {
            ps.setString(1, name);
            ps.setString(2, value);
            ps.setString(3, defaultValue);
            ps.executeUpdate();
        }
    }

    /** Holds a cluster as a fenced-mode operation does: version, owner msid and runid, job. */
    void hold(long clusterId, long version, long msid, long runid, long jobId) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE kubernetes_cluster SET state_version = " + version + ", op_owner_msid = " + msid
                    + ", op_owner_runid = " + runid + ", op_job_id = " + jobId + " WHERE id = " + clusterId);
        }
    }

    String state(long clusterId) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT state FROM kubernetes_cluster WHERE id = " + clusterId)) {
            rs.next();
            return rs.getString(1).strip();
        }
    }
}
