-- Copyright 2025-2026 The cks-state authors
-- SPDX-License-Identifier: Apache-2.0
-- The test kit's stand-in of the Apache CloudStack tables cks-state reads and writes, for a database
-- that is not CloudStack's: H2 (embedded) and the simulator's own scratch databases (StandInSchema). A deployment, and the
-- MariaDB tests, have CloudStack's own tables (scripts/cloudstack-db.sh builds them from CloudStack's
-- SQL), where this file is never run. The columns it has carry CloudStack 4.22's names and types
-- (SchemaTest compares them with CloudStack's database). Runs unchanged on MariaDB / MySQL and on
-- H2 in MySQL mode (MODE=MySQL;DATABASE_TO_LOWER=TRUE). Statements are separated by ';' at the
-- end of a line.
--
-- Deviations from CloudStack's tables:
--  * only the tables and columns cks-state, its tests and its simulator use;
--  * no foreign keys to tables outside the stand-in (no zone, account, offering, template or
--    network tables); the one of kubernetes_cluster_vm_map to kubernetes_cluster is CloudStack's;
--  * a unique key on kubernetes_cluster.uuid, which CloudStack's table lacks;
--  * NOT NULL columns the library never reads get a DEFAULT so that the simulator inserts short rows.
-- The library itself only reads kubernetes_cluster(id, uuid, state, removed, cluster_type, node
-- counts), async_job(job_status, job_cmd, instance_type, instance_id, job_cmd_info, msids),
-- kubernetes_cluster_vm_map, vm_instance(state, removed), mshost and configuration, and writes
-- kubernetes_cluster.state only.

CREATE TABLE IF NOT EXISTS `kubernetes_cluster` (
  `id` bigint unsigned NOT NULL auto_increment,
  `uuid` varchar(40) DEFAULT NULL,
  `name` varchar(255) NOT NULL,
  `description` varchar(4096) COMMENT 'display text for this Kubernetes cluster',
  `zone_id` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'the ID of the zone in which this Kubernetes cluster is deployed',
  `kubernetes_version_id` bigint unsigned NULL COMMENT 'the ID of the Kubernetes version of this Kubernetes cluster',
  `service_offering_id` bigint unsigned COMMENT 'service offering id for the cluster VM',
  `template_id` bigint unsigned COMMENT 'the ID of the template used by this Kubernetes cluster',
  `network_id` bigint unsigned COMMENT 'the ID of the network used by this Kubernetes cluster',
  `control_node_count` bigint NOT NULL default '0' COMMENT 'the number of the control nodes deployed for this Kubernetes cluster',
  `node_count` bigint NOT NULL default '0' COMMENT 'the number of the worker nodes deployed for this Kubernetes cluster',
  `etcd_node_count` bigint unsigned DEFAULT NULL COMMENT 'number of etcd nodes to be deployed for the Kubernetes cluster',
  `account_id` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'the ID of owner account of this Kubernetes cluster',
  `domain_id` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'the ID of the domain of this cluster',
  `state` char(32) NOT NULL COMMENT 'the current state of this Kubernetes cluster',
  `key_pair` varchar(40),
  `cores` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'total number of CPU cores used by this Kubernetes cluster',
  `memory` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'total memory used by this Kubernetes cluster',
  `node_root_disk_size` bigint unsigned DEFAULT 0 COMMENT 'root disk size of root disk for each node',
  `endpoint` varchar(255) COMMENT 'url endpoint of the Kubernetes cluster manager api access',
  `created` datetime NOT NULL COMMENT 'date created',
  `removed` datetime COMMENT 'date removed or null, if still present',
  `gc` tinyint unsigned NOT NULL DEFAULT 1 COMMENT 'gc this Kubernetes cluster or not',
  `autoscaling_enabled` tinyint(1) unsigned NOT NULL DEFAULT 0,
  `minsize` bigint,
  `maxsize` bigint,
  `cluster_type` varchar(64) DEFAULT 'CloudManaged' COMMENT 'type of cluster',
  PRIMARY KEY (`id`),
  CONSTRAINT `uc_kubernetes_cluster__uuid` UNIQUE (`uuid`),
  INDEX `i_kubernetes_cluster__state` (`state`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `kubernetes_cluster_vm_map` (
  `id` bigint unsigned NOT NULL auto_increment,
  `cluster_id` bigint unsigned NOT NULL COMMENT 'the ID of the Kubernetes cluster',
  `vm_id` bigint unsigned NOT NULL COMMENT 'the ID of the VM',
  `control_node` tinyint(1) unsigned NOT NULL DEFAULT 0,
  `etcd_node` tinyint(1) unsigned NOT NULL DEFAULT 0 COMMENT 'indicates if the VM is an etcd node',
  `external_node` tinyint(1) unsigned NOT NULL DEFAULT 0 COMMENT 'indicates if the node was imported into the Kubernetes cluster',
  PRIMARY KEY (`id`),
  INDEX `i_kubernetes_cluster_vm_map__cluster_id` (`cluster_id`),
  CONSTRAINT `fk_kubernetes_cluster_vm_map__cluster_id` FOREIGN KEY (`cluster_id`) REFERENCES `kubernetes_cluster` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `vm_instance` (
  `id` bigint unsigned NOT NULL,
  `name` varchar(255) NOT NULL,
  `uuid` varchar(40),
  `instance_name` varchar(255) NOT NULL DEFAULT '' COMMENT 'name of the vm instance running on the hosts',
  `state` varchar(32) NOT NULL,
  `vm_template_id` bigint unsigned DEFAULT NULL,
  `guest_os_id` bigint unsigned NOT NULL DEFAULT 0,
  `data_center_id` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'Data Center the instance belongs to',
  `vnc_password` varchar(255) NOT NULL DEFAULT '' COMMENT 'vnc password',
  `update_count` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'date state was updated',
  `type` varchar(32) NOT NULL DEFAULT 'User' COMMENT 'type of vm it is',
  `vm_type` varchar(32) NOT NULL DEFAULT 'User' COMMENT 'vm type',
  `account_id` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'user id of owner',
  `domain_id` bigint unsigned NOT NULL DEFAULT 0,
  `service_offering_id` bigint unsigned NOT NULL DEFAULT 0 COMMENT 'service offering id',
  `hypervisor_type` char(32) DEFAULT NULL COMMENT 'hypervisor type',
  `user_id` bigint unsigned NOT NULL DEFAULT 1 COMMENT 'user id of VM deployer',
  `created` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP COMMENT 'date created',
  `removed` datetime COMMENT 'date removed if not null',
  PRIMARY KEY (`id`),
  CONSTRAINT `uc_vm_instance_uuid` UNIQUE (`uuid`),
  INDEX `i_vm_instance__removed` (`removed`),
  INDEX `i_vm_instance__state` (`state`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `async_job` (
  `id` bigint unsigned NOT NULL auto_increment,
  `user_id` bigint unsigned NOT NULL DEFAULT 0,
  `account_id` bigint unsigned NOT NULL DEFAULT 0,
  `instance_type` varchar(64) DEFAULT NULL COMMENT 'instance_type and instance_id work together to allow attaching an instance object to a job',
  `instance_id` bigint unsigned DEFAULT NULL,
  `job_cmd` varchar(255) DEFAULT NULL,
  `job_cmd_info` text COMMENT 'command parameter info',
  `job_cmd_ver` int(1) DEFAULT NULL COMMENT 'command version',
  `job_status` int(1) DEFAULT NULL COMMENT 'general job execution status',
  `job_process_status` int(1) DEFAULT NULL COMMENT 'job specific process status for asynchronize progress update',
  `job_result_code` int(1) DEFAULT NULL COMMENT 'job result code, specify error code corresponding to result message',
  `job_result` text COMMENT 'job result info',
  `job_init_msid` bigint DEFAULT NULL COMMENT 'the initiating msid',
  `job_complete_msid` bigint DEFAULT NULL COMMENT 'completing msid',
  `created` datetime DEFAULT NULL COMMENT 'date created',
  `last_updated` datetime DEFAULT NULL COMMENT 'date created',
  `last_polled` datetime DEFAULT NULL COMMENT 'date polled',
  `removed` datetime DEFAULT NULL COMMENT 'date removed',
  `uuid` varchar(40) DEFAULT NULL,
  `related` char(40) NOT NULL DEFAULT '',
  `job_type` varchar(32) DEFAULT NULL,
  `job_dispatcher` varchar(64) DEFAULT NULL,
  `job_executing_msid` bigint DEFAULT NULL,
  `job_pending_signals` int(10) NOT NULL DEFAULT '0',
  PRIMARY KEY (`id`),
  CONSTRAINT `uc_async__uuid` UNIQUE (`uuid`),
  INDEX `i_async_job__removed` (`removed`),
  INDEX `i_async__instance_type_id` (`instance_type`, `instance_id`),
  INDEX `i_async__job_cmd` (`job_cmd`),
  INDEX `i_async__created` (`created`),
  INDEX `i_async__last_updated` (`last_updated`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `mshost` (
  `id` bigint unsigned NOT NULL auto_increment,
  `msid` bigint unsigned NOT NULL COMMENT 'management server id derived from MAC address',
  `runid` bigint NOT NULL DEFAULT 0 COMMENT 'run id, combined with msid to form a cluster session',
  `name` varchar(255),
  `uuid` varchar(40),
  `state` varchar(25) DEFAULT NULL,
  `version` varchar(255),
  `service_ip` char(40) NOT NULL DEFAULT '127.0.0.1',
  `service_port` integer NOT NULL DEFAULT 9090,
  `last_update` DATETIME NULL COMMENT 'Last record update time',
  `removed` datetime COMMENT 'date removed if not null',
  `alert_count` integer NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  CONSTRAINT `uc_mshost__msid` UNIQUE (`msid`),
  INDEX `i_mshost__removed` (`removed`),
  INDEX `i_mshost__last_update` (`last_update`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Global settings (CloudStack's `configuration`): the effective value of a key is `value`, else
-- `default_value`. cks-state reads the CKS operation timeouts and the heartbeat threshold here.
-- utf8mb3 as CloudStack's: two varchar(8191) of utf8mb4 exceed InnoDB's row size.
CREATE TABLE IF NOT EXISTS `configuration` (
  `category` varchar(255) NOT NULL DEFAULT 'Advanced',
  `instance` varchar(255) NOT NULL DEFAULT 'DEFAULT',
  `component` varchar(255) NOT NULL DEFAULT 'management-server',
  `name` varchar(255) NOT NULL,
  `value` varchar(8191) DEFAULT NULL,
  `description` varchar(1024) DEFAULT NULL,
  `default_value` varchar(8191) DEFAULT NULL,
  `updated` datetime DEFAULT NULL COMMENT 'Time this was updated by the server. null means this row is obsolete.',
  `is_dynamic` tinyint(1) NOT NULL DEFAULT 0 COMMENT 'Can the parameter be change dynamically without restarting the server',
  `scope` bigint NOT NULL DEFAULT 0 COMMENT 'Bitmask for scope(s) of this parameter',
  PRIMARY KEY (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3;

-- The releases the database went through (CloudStack's `version`): the newest Complete row is the
-- release the database is at, whose transition table the tool uses. The stand-in starts empty.
CREATE TABLE IF NOT EXISTS `version` (
  `id` bigint unsigned NOT NULL UNIQUE auto_increment COMMENT 'id',
  `version` char(40) NOT NULL UNIQUE COMMENT 'version',
  `updated` datetime NOT NULL COMMENT 'Date this version table was updated',
  `step` char(32) NOT NULL COMMENT 'Step in the upgrade to this version',
  PRIMARY KEY (`id`),
  INDEX `i_version__version` (`version`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3;
