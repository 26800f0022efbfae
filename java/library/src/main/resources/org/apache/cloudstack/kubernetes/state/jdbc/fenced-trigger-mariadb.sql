-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- Fenced mode, rolling-upgrade guard (MariaDB / MySQL): a write that changes `state` without
-- bumping `state_version` (an older server's DAO: UPDATE kubernetes_cluster SET state=? WHERE id=?)
-- gets the version bumped and the cluster released, so no holder's token matches any more: its
-- completion misses instead of overwriting the older server's state. Fenced writes always bump the
-- version themselves and pass through untouched. One SET statement: no DELIMITER needed.
-- The assignments run in order: the version, which the condition reads, is assigned last.
DROP TRIGGER IF EXISTS `trg_kubernetes_cluster__state_version`;
CREATE TRIGGER `trg_kubernetes_cluster__state_version` BEFORE UPDATE ON `kubernetes_cluster` FOR EACH ROW
  SET NEW.op_owner_msid = IF(NEW.state <> OLD.state AND NEW.state_version = OLD.state_version, NULL, NEW.op_owner_msid),
      NEW.op_owner_runid = IF(NEW.state <> OLD.state AND NEW.state_version = OLD.state_version, NULL, NEW.op_owner_runid),
      NEW.op_job_id = IF(NEW.state <> OLD.state AND NEW.state_version = OLD.state_version, NULL, NEW.op_job_id),
      NEW.state_version = IF(NEW.state <> OLD.state AND NEW.state_version = OLD.state_version, OLD.state_version + 1, NEW.state_version);
