-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- Fenced mode, rolling-upgrade guard on H2: the same rule as fenced-trigger-mariadb.sql, in Java
-- (H2 triggers are classes): FencedVersionTrigger.
DROP TRIGGER IF EXISTS `trg_kubernetes_cluster__state_version`;
CREATE TRIGGER `trg_kubernetes_cluster__state_version` BEFORE UPDATE ON `kubernetes_cluster` FOR EACH ROW CALL 'org.apache.cloudstack.kubernetes.state.jdbc.FencedVersionTrigger';
