-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- The harness's record of every state change of kubernetes_cluster (not CloudStack's, not the
-- library's): one row per UPDATE that changes the state, whoever makes it, written by a trigger in
-- the writer's own statement (StandInSchema.createHistory), so that the tests and the simulator check
-- afterwards that every change is a row of the table and that no two writers won the same state.
-- Made anew each time (an older layout would fail the trigger's insert).
DROP TRIGGER IF EXISTS `trg_cks_state_history`;
DROP TABLE IF EXISTS `cks_state_history`;
CREATE TABLE `cks_state_history` (
  `id` bigint unsigned NOT NULL auto_increment,
  `cluster_id` bigint unsigned NOT NULL,
  `from_state` char(32) NOT NULL,
  `to_state` char(32) NOT NULL,
  `at` datetime(3) NOT NULL COMMENT 'database time of the change',
  PRIMARY KEY (`id`),
  INDEX `i_cks_state_history__cluster_id` (`cluster_id`, `id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
