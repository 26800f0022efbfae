-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- Fenced mode, migration DOWN: back to CloudStack's own table. Every row keeps its id, state and
-- all other columns; only the fence (version, owner) is dropped, in one statement. Stop every
-- fenced-mode server first (compat-mode servers keep running: they never read these columns).
-- `cks-state schema --migrate compat --apply` drops whatever of them exists (FencedMigration).
DROP TRIGGER IF EXISTS `trg_kubernetes_cluster__state_version`;
ALTER TABLE `kubernetes_cluster`
  DROP COLUMN `op_job_id`,
  DROP COLUMN `op_owner_runid`,
  DROP COLUMN `op_owner_msid`,
  DROP COLUMN `state_version`;
