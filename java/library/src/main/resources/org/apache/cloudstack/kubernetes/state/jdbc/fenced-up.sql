-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- Fenced mode, migration UP, for an existing CloudStack `cloud` database (MariaDB / MySQL 8): the
-- four fence columns, in one statement, so that they are added together or not at all (on H2, the
-- tests' and the simulator's, FencedMigration writes the same columns as H2's ADD (...) list). Then the trigger (fenced-trigger-mariadb.sql; H2:
-- fenced-trigger-h2.sql). `cks-state schema --migrate fenced --apply` runs both (FencedMigration),
-- adding only the columns a migration cut short left missing, after trying the trigger's
-- privileges; by hand, run this file, then the trigger's. The columns have defaults, so servers that
-- do not know them keep inserting and updating rows unchanged. One clause a line: FencedMigration
-- reads the columns' definitions from here.
ALTER TABLE `kubernetes_cluster`
  ADD COLUMN `state_version` bigint NOT NULL DEFAULT 0 COMMENT 'bumped by every write of state or of the op_* columns (cks-state fenced mode)',
  ADD COLUMN `op_owner_msid` bigint unsigned NULL DEFAULT NULL COMMENT 'mshost.msid of the server holding the current operation, NULL when free',
  ADD COLUMN `op_owner_runid` bigint NULL DEFAULT NULL COMMENT 'mshost.runid of that server when it took the cluster',
  ADD COLUMN `op_job_id` bigint unsigned NULL DEFAULT NULL COMMENT 'async_job.id of the current operation, NULL for none';
