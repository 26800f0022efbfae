-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- Fenced mode, migration UP, for an existing CloudStack `cloud` database (MariaDB / MySQL 8) and
-- for H2 in MySQL mode (tests, the embedded simulator). Run by CloudStackSchema.migrateUp, which
-- checks the columns first: all present -> these ALTERs are skipped; some present -> error.
-- Plain ALTERs (no IF NOT EXISTS: MySQL 8 lacks it), one column each. The columns have defaults,
-- so servers that do not know them keep inserting and updating rows unchanged.
ALTER TABLE `kubernetes_cluster` ADD COLUMN `state_version` bigint NOT NULL DEFAULT 0 COMMENT 'bumped by every write of state or of the op_* columns (cks-state fenced mode)';
ALTER TABLE `kubernetes_cluster` ADD COLUMN `op_owner_msid` bigint unsigned NULL DEFAULT NULL COMMENT 'mshost.msid of the server holding the current operation, NULL when free';
ALTER TABLE `kubernetes_cluster` ADD COLUMN `op_owner_runid` bigint NULL DEFAULT NULL COMMENT 'mshost.runid of that server when it took the cluster';
ALTER TABLE `kubernetes_cluster` ADD COLUMN `op_job_id` bigint unsigned NULL DEFAULT NULL COMMENT 'async_job.id of the current operation, NULL for none';
