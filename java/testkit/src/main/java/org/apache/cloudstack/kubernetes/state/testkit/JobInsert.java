// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** One {@code async_job} row as {@code ApiServer.queueCommand} and the job's end write it. */
public final class JobInsert {
    private final ConnectionOpener source;

    private String cmd = ClusterCommandNames.SCALE;
    private JobShape shape = JobShape.CURRENT;
    private Long clusterId;
    private String clusterUuid;
    private boolean instanceTypeSet;
    private String instanceType;
    private boolean instanceIdSet;
    private Long instanceId;
    private String cmdInfo;
    private int status;
    private Long initMsid = CloudStackRows.MSID;
    private Long executingMsid = CloudStackRows.MSID;
    private long ageSeconds;
    private Integer resultCode;
    private String result;
    private boolean removed;
    private Long id;

    JobInsert(ConnectionOpener source) {
        this.source = source;
    }

    /** This id rather than the next one the table gives (a replay keeps the recorded ids). */
    public JobInsert id(long jobId) {
        this.id = jobId;
        return this;
    }

    public JobInsert cmd(String jobCmd) {
        this.cmd = jobCmd;
        return this;
    }

    /** Which release wrote the job (instance_type, instance_id and the cluster's place in job_cmd_info). */
    public JobInsert shape(JobShape jobShape) {
        this.shape = jobShape;
        return this;
    }

    /** The cluster the command acts on (id and uuid): its instance_id and job_cmd_info by the shape. */
    public JobInsert cluster(long id, String uuid) {
        this.clusterId = id;
        this.clusterUuid = uuid;
        return this;
    }

    /** The cluster recorded in instance_id (job_cmd_info as set, or without the cluster). */
    public JobInsert cluster(long id) {
        return instance(id);
    }

    /** instance_type as written, overriding the shape's (null: NULL). */
    public JobInsert instanceType(String type) {
        this.instanceTypeSet = true;
        this.instanceType = type;
        return this;
    }

    /** instance_id as written, overriding the shape's (null: NULL). */
    public JobInsert instance(Long id) {
        this.instanceIdSet = true;
        this.instanceId = id;
        return this;
    }

    /** job_cmd_info as written, overriding the shape's. */
    public JobInsert cmdInfo(String json) {
        this.cmdInfo = json;
        return this;
    }

    public JobInsert status(int jobStatus) {
        this.status = jobStatus;
        return this;
    }

    /** Initiated and executed on this server. */
    public JobInsert msid(long server) {
        this.initMsid = server;
        this.executingMsid = server;
        return this;
    }

    /** job_init_msid and job_executing_msid apart (a job queued on one server and run on another). */
    public JobInsert msids(Long init, Long executing) {
        this.initMsid = init;
        this.executingMsid = executing;
        return this;
    }

    /** Created this many seconds ago, by the database's clock. */
    public JobInsert age(long seconds) {
        this.ageSeconds = seconds;
        return this;
    }

    /** job_result_code and job_result, as the job's end wrote them. */
    public JobInsert result(Integer code, String text) {
        this.resultCode = code;
        this.result = text;
        return this;
    }

    /** Soft-deleted, as CloudStack leaves finished jobs. */
    public JobInsert removed(boolean soft) {
        this.removed = soft;
        return this;
    }

    /** Writes the row; its id. */
    public long insert() throws SQLException {
        try (Connection c = source.open()) {
            String now = RowWriter.utcNow(c);
            String created = "TIMESTAMPADD(SECOND, " + (-ageSeconds) + ", " + now + ")";
            return RowWriter.insertReturningId(c, "async_job", row(), Map.of("created", created, "last_updated", now), removed);
        }
    }

    private Map<String, Object> row() {
        Map<String, Object> row = new LinkedHashMap<>();
        if (id != null) {
            row.put("id", id);
        }
        row.put("uuid", UUID.randomUUID().toString());
        row.put("user_id", CloudStackRows.USER_ID);
        row.put("account_id", CloudStackRows.ACCOUNT_ID);
        row.put("instance_type", instanceTypeSet ? instanceType : shape.instanceType(cmd));
        row.put("instance_id", instanceIdSet ? instanceId : clusterId == null ? null : shape.instanceId(cmd, clusterId));
        row.put("job_cmd", cmd);
        row.put("job_cmd_info", cmdInfo != null ? cmdInfo
                : clusterId == null ? JobShape.cmdInfo(cmd, null, null) : JobShape.cmdInfo(cmd, clusterId, clusterUuid));
        row.put("job_cmd_ver", 1);
        row.put("job_status", status);
        row.put("job_process_status", 0);
        row.put("job_result_code", resultCode != null ? resultCode : 0);
        row.put("job_result", result);
        row.put("job_init_msid", initMsid);
        row.put("job_executing_msid", executingMsid);
        row.put("related", "");
        row.put("job_type", "AsyncJob");
        row.put("job_dispatcher", "ApiAsyncJobDispatcher");
        row.put("job_pending_signals", 0);
        return row;
    }
}
