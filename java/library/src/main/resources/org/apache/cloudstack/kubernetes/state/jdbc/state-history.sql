-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- cks-state's own table (not part of CloudStack's schema): one row per state change made by
-- KubernetesClusterStateDao when its history flag is on, written in the same transaction as the
-- change, so that tools can check invariants afterwards (every row is a transition of the table,
-- rows of one cluster chain from_state -> to_state, no two writers won the same from_state).
CREATE TABLE IF NOT EXISTS `cks_state_history` (
  `id` bigint unsigned NOT NULL auto_increment,
  `cluster_id` bigint unsigned NOT NULL,
  `from_state` char(32) NOT NULL,
  `to_state` char(32) NOT NULL,
  `event` varchar(64) NOT NULL,
  `msid` bigint DEFAULT NULL COMMENT 'management server that made the change, when known',
  `at` datetime(3) NOT NULL COMMENT 'database time of the change',
  PRIMARY KEY (`id`),
  INDEX `i_cks_state_history__cluster_id` (`cluster_id`, `id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
