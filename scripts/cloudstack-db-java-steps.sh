# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/cloudstack-db.sh (its sql helper, its cache key): the upgrades' Java steps
# (DbUpgrade.performDataMigration), by hand.
# shellcheck shell=bash

# What DbUpgrade.performDataMigration (Java) does, by hand, in the order the class does it: every
# schema change, and the data changes that act on rows a fresh developer database has. Statements
# the Java code tries and whose failure it ignores (drops of keys a fresh database lacks) are left
# out, as are the data changes of classes not named here: they act on zones, hosts, VMs, volumes,
# networks and other rows a fresh database has none of. Left out on purpose, data only and of
# tables cks-state never reads: the guest OS rows and mappings of Upgrade4930to41000
# (populateGuestOsDetails), Upgrade41720to41800 and Upgrade41800to41810 (GuestOsMapper), the
# configuration groups of
# Upgrade41720to41800 (updateConfigurationGroups), and the system VM template urls of the last
# upgrade's updateSystemVmTemplates.
java_steps() {
    case "$1" in
        Upgrade410to420)
            # addHostDetailsIndex, addIndexForAlert, fixBaremetalForeignKeys, fixNiciraKeys,
            # fixRouterKeys, createFullCloneFlag (no zone yet), upgradeResourceCount (accounts 1 and 2,
            # domain 1).
            sql 'ALTER TABLE `cloud`.`host_details` ADD INDEX `fk_host_details__host_id` (`host_id`)'
            sql 'ALTER TABLE `cloud`.`alert` ADD INDEX `i_alert__last_sent`(`last_sent`)'
            sql 'ALTER TABLE `cloud`.`baremetal_dhcp_devices` ADD CONSTRAINT `fk_external_dhcp_devices_nsp_id` FOREIGN KEY (`nsp_id`) REFERENCES `physical_network_service_providers` (`id`) ON DELETE CASCADE'
            sql 'ALTER TABLE `cloud`.`baremetal_dhcp_devices` ADD CONSTRAINT `fk_external_dhcp_devices_host_id` FOREIGN KEY (`host_id`) REFERENCES `host`(`id`) ON DELETE CASCADE'
            sql 'ALTER TABLE `cloud`.`baremetal_dhcp_devices` ADD CONSTRAINT `fk_external_dhcp_devices_physical_network_id` FOREIGN KEY (`physical_network_id`) REFERENCES `physical_network`(`id`) ON DELETE CASCADE'
            sql 'ALTER TABLE `cloud`.`baremetal_pxe_devices` ADD CONSTRAINT `fk_external_pxe_devices_nsp_id` FOREIGN KEY (`nsp_id`) REFERENCES `physical_network_service_providers` (`id`) ON DELETE CASCADE'
            sql 'ALTER TABLE `cloud`.`baremetal_pxe_devices` ADD CONSTRAINT `fk_external_pxe_devices_host_id` FOREIGN KEY (`host_id`) REFERENCES `host`(`id`) ON DELETE CASCADE'
            sql 'ALTER TABLE `cloud`.`baremetal_pxe_devices` ADD CONSTRAINT `fk_external_pxe_devices_physical_network_id` FOREIGN KEY (`physical_network_id`) REFERENCES `physical_network`(`id`) ON DELETE CASCADE'
            sql 'ALTER TABLE nicira_nvp_nic_map DROP FOREIGN KEY fk_nicira_nvp_nic_map__nic'
            sql 'ALTER TABLE `cloud`.`nicira_nvp_nic_map` ADD CONSTRAINT `fk_nicira_nvp_nic_map__nic` FOREIGN KEY (`nic`) REFERENCES `nics` (`uuid`) ON DELETE CASCADE'
            sql 'ALTER TABLE router_network_ref DROP FOREIGN KEY fk_router_network_ref__router_id'
            sql 'ALTER TABLE `cloud`.`router_network_ref` ADD CONSTRAINT `fk_router_network_ref__router_id` FOREIGN KEY (`router_id`) REFERENCES `domain_router` (`id`) ON DELETE CASCADE'
            sql "DELETE FROM \`cloud\`.\`configuration\` WHERE name = 'vmware.create.full.clone';
                INSERT INTO \`cloud\`.\`configuration\` (\`category\`, \`instance\`, \`component\`, \`name\`, \`value\`, \`description\`)
                VALUES ('Advanced', 'DEFAULT', 'UserVmManager', 'vmware.create.full.clone', 'true', 'If set to true, creates VMs as full clones on ESX hypervisor')"
            local a t
            for a in 1 2; do
                for t in cpu memory primary_storage secondary_storage; do
                    sql "INSERT INTO \`cloud\`.\`resource_count\` (account_id, type, count) VALUES ($a, '$t', 0) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id), count = 0"
                done
            done
            for t in cpu memory primary_storage secondary_storage; do
                sql "INSERT INTO \`cloud\`.\`resource_count\` (domain_id, type, count) VALUES (1, '$t', 0) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id), count = 0"
            done
            ;;
        Upgrade430to440)
            # addExtractTemplateAndVolumeColumns (the columns are missing on a fresh database).
            sql 'ALTER TABLE `cloud`.`template_store_ref` ADD COLUMN `download_url_created` datetime'
            sql 'ALTER TABLE `cloud`.`template_store_ref` ADD COLUMN `download_url` varchar(255)'
            sql 'ALTER TABLE `cloud`.`volume_store_ref` ADD COLUMN `download_url_created` datetime'
            ;;
        Upgrade442to450)
            # dropInvalidKeyFromStoragePoolTable, dropDuplicatedForeignKeyFromAsyncJobTable.
            sql 'ALTER TABLE storage_pool DROP KEY id_2'
            sql 'ALTER TABLE async_job_join_map DROP FOREIGN KEY fk_async_job_join_map__join_job_id'
            ;;
        Upgrade453to460)
            # Upgrade452to460: updateVMInstanceUserId -> addRedundancyForNwAndVpc, removeBumPriorityColumn;
            # addIndexForVMInstance.
            sql 'ALTER TABLE `cloud`.`vpc` ADD COLUMN `redundant` tinyint(1) DEFAULT 0'
            sql 'ALTER TABLE `cloud`.`vpc_offerings` ADD COLUMN `redundant_router_service` tinyint(1) DEFAULT 0'
            sql 'ALTER TABLE `cloud`.`networks` ADD COLUMN `redundant` tinyint(1) DEFAULT 0'
            sql 'ALTER TABLE `cloud`.`domain_router` DROP COLUMN `is_priority_bumpup`'
            sql 'ALTER TABLE `cloud`.`vm_instance` ADD INDEX `i_vm_instance__instance_name`(`instance_name`)'
            ;;
        Upgrade461to470)
            # alterAddColumnToCloudUsage.
            sql "ALTER TABLE \`cloud_usage\`.\`cloud_usage\` ADD COLUMN \`quota_calculated\` tinyint(1) DEFAULT 0 NOT NULL COMMENT 'quota calculation status'"
            ;;
        Upgrade481to490)
            # setupRolesAndPermissionsForDynamicChecker: account.role_id in both databases,
            # migrateAccountsToDefaultRoles (RoleType.getByAccountType: ADMIN 1, RESOURCE_DOMAIN_ADMIN 2,
            # DOMAIN_ADMIN 3, NORMAL 4), then the script create-default-role-api-mappings.sql.
            sql "ALTER TABLE \`cloud\`.\`account\` ADD COLUMN \`role_id\` bigint(20) unsigned COMMENT 'role id for this account' AFTER \`type\`,
                ADD KEY \`fk_account__role_id\` (\`role_id\`),
                ADD CONSTRAINT \`fk_account__role_id\` FOREIGN KEY (\`role_id\`) REFERENCES \`roles\` (\`id\`)"
            sql 'ALTER TABLE `cloud_usage`.`account` ADD COLUMN `role_id` bigint(20) unsigned AFTER `type`'
            sql 'UPDATE `cloud`.`account` SET role_id = CASE type WHEN 1 THEN 1 WHEN 3 THEN 2 WHEN 2 THEN 3 WHEN 0 THEN 4 END
                WHERE type IN (0, 1, 2, 3)'
            run_file cloud "$META/create-default-role-api-mappings.sql"
            ;;
        Upgrade41100to41110)
            # markUnnecessarySecureConfigsAsUnsecure: the ldap settings a fresh database has (value NULL).
            sql "UPDATE \`cloud\`.\`configuration\` SET category = 'Advanced', value = NULL WHERE category = 'Secure'
                AND name IN ('ldap.basedn', 'ldap.bind.principal', 'ldap.search.group.principle', 'ldap.truststore')"
            ;;
        Upgrade41400to41500)
            # addRolePermissionsForNewReadOnlyAndSupportRoles: each role's rules in order, its
            # sort_order counting every rule tried; copies of another role's ALLOW rules keep their order.
            local roa="SELECT id FROM roles WHERE name = 'Read-Only Admin - Default' AND is_default = 1"
            local rou="SELECT id FROM roles WHERE name = 'Read-Only User - Default' AND is_default = 1"
            local sa="SELECT id FROM roles WHERE name = 'Support Admin - Default' AND is_default = 1"
            local su="SELECT id FROM roles WHERE name = 'Support User - Default' AND is_default = 1"
            RULE_ORDER=0
            role_rules "$roa" ALLOW 'list*'
            role_rules "$roa" DENY 'getUploadParamsFor*'
            role_rules "$roa" ALLOW 'get*' cloudianIsEnabled queryAsyncJobResult quotaIsEnabled quotaTariffList quotaSummary
            role_rules "$roa" DENY '*'
            RULE_ORDER=0
            role_copy "$rou" "role_id = 4 AND permission = 'ALLOW' AND rule LIKE 'list%'"
            role_copy "$rou" "role_id = 4 AND permission = 'ALLOW' AND rule LIKE 'get%' AND rule NOT LIKE 'getUploadParamsFor%'"
            role_rules "$rou" ALLOW cloudianIsEnabled queryAsyncJobResult quotaIsEnabled quotaTariffList quotaSummary
            role_rules "$rou" DENY '*'
            RULE_ORDER=0
            role_copy "$sa" "role_id = ($roa) AND permission = 'ALLOW'"
            role_rules "$sa" ALLOW prepareHostForMaintenance cancelHostMaintenance enableStorageMaintenance \
                cancelStorageMaintenance createServiceOffering createDiskOffering createNetworkOffering createVPCOffering \
                startVirtualMachine stopVirtualMachine rebootVirtualMachine startKubernetesCluster stopKubernetesCluster \
                createVolume attachVolume detachVolume uploadVolume attachIso detachIso registerTemplate registerIso
            role_rules "$sa" DENY '*'
            RULE_ORDER=0
            role_copy "$su" "role_id = ($rou) AND permission = 'ALLOW'"
            role_rules "$su" ALLOW startVirtualMachine stopVirtualMachine rebootVirtualMachine startKubernetesCluster \
                stopKubernetesCluster createVolume attachVolume detachVolume uploadVolume attachIso detachIso \
                registerTemplate registerIso 'getUploadParamsFor*'
            role_rules "$su" DENY '*'
            ;;
        Upgrade41520to41600)
            # populateAnnotationPermissions (RolePermissionChecker: only where the role lacks the rule).
            local role rule
            for role in 2 3 4; do
                for rule in listAnnotations addAnnotation removeAnnotation; do
                    sql "INSERT IGNORE INTO \`cloud\`.\`role_permissions\` (uuid, role_id, rule, permission)
                        SELECT UUID(), $role, '$rule', 'ALLOW' FROM DUAL WHERE NOT EXISTS
                        (SELECT 1 FROM \`cloud\`.\`role_permissions\` WHERE role_id = $role AND rule = '$rule')"
                done
            done
            ;;
        Upgrade41720to41800)
            # convertVmResourcesQuotaTypesToRunningVmQuotaType (no tariff has a value: nothing inserted).
            sql 'UPDATE cloud_usage.quota_tariff SET removed = UTC_TIMESTAMP() WHERE usage_type IN (15, 16, 17) AND removed IS NULL'
            ;;
        Upgrade41800to41810)
            # fixForeignKeyNames, addForeignKeyToAutoscaleVmprofiles, addIndexes.
            sql 'ALTER TABLE `cloud`.`user_vm` ADD CONSTRAINT `fk_user_vm__user_data_id` FOREIGN KEY `fk_user_vm__user_data_id`(`user_data_id`) REFERENCES `user_data`(`id`)'
            sql 'ALTER TABLE `cloud`.`vm_template` ADD CONSTRAINT `fk_vm_template__user_data_id` FOREIGN KEY `fk_vm_template__user_data_id`(`user_data_id`) REFERENCES `user_data`(`id`)'
            sql 'ALTER TABLE `cloud`.`volumes` ADD CONSTRAINT `fk_volumes__passphrase_id` FOREIGN KEY `fk_volumes__passphrase_id`(`passphrase_id`) REFERENCES `passphrase`(`id`)'
            sql 'ALTER TABLE `cloud`.`autoscale_vmprofiles` ADD CONSTRAINT `fk_autoscale_vmprofiles__user_data_id` FOREIGN KEY `fk_autoscale_vmprofiles__user_data_id`(`user_data_id`) REFERENCES `user_data`(`id`)'
            sql 'CREATE INDEX i_cluster_details__name ON cluster_details (name)'
            ;;
        Upgrade41810to41900)
            # migrateBackupDates (date becomes a DATETIME, last column), addIndexes,
            # addRemoverAccountIdForeignKeyToQuarantinedIps.
            sql 'ALTER TABLE `cloud`.`backups` CHANGE COLUMN `date` `old_date` varchar(255)'
            sql 'ALTER TABLE `cloud`.`backups` ADD COLUMN `date` DATETIME'
            sql 'ALTER TABLE `cloud`.`backups` DROP COLUMN `old_date`'
            sql 'CREATE INDEX i_alert__archived__created ON alert (archived, created)'
            sql 'CREATE INDEX i_alert__type__data_center_id__pod_id ON alert (type, data_center_id, pod_id)'
            sql 'CREATE INDEX i_event__resource_type__resource_id ON event (resource_type, resource_id)'
            sql 'ALTER TABLE `cloud`.`quarantined_ips` ADD CONSTRAINT `fk_quarantined_ips__remover_account_id` FOREIGN KEY `fk_quarantined_ips__remover_account_id`(`remover_account_id`) REFERENCES `account`(`id`)'
            ;;
        Upgrade41900to41910)
            # addIndexes.
            sql 'CREATE INDEX i_vm_stats__vm_id ON vm_stats (vm_id)'
            ;;
        Upgrade41910to42000)
            # checkAndUpdateAffinityGroupNameCharSetToUtf8mb4 (no name longer than 191 characters).
            sql 'ALTER TABLE `cloud`.`affinity_group` MODIFY `name` VARCHAR(191) CHARACTER SET utf8mb4 NOT NULL'
            ;;
        Upgrade42000to42010)
            # addIndexes (renameIndexIfNeeded renames nothing: public_ip_address exists).
            local index
            while read -r index; do
                [ -n "$index" ] && sql "CREATE INDEX $index"
            done <<'INDEXES'
i_host__mgmt_server_id ON host (mgmt_server_id)
i_host__resource ON host (resource)
i_host__resource_state ON host (resource_state)
i_host__type ON host (type)
i_user_ip_address__public_ip_address ON user_ip_address (public_ip_address)
i_user_ip_address__data_center_id ON user_ip_address (data_center_id)
i_user_ip_address__vlan_db_id ON user_ip_address (vlan_db_id)
i_user_ip_address__removed ON user_ip_address (removed)
i_vlan__vlan_type ON vlan (vlan_type)
i_vlan__data_center_id ON vlan (data_center_id)
i_vlan__removed ON vlan (removed)
i_network_offering_details__name ON network_offering_details (name)
i_service_offering__cpu ON service_offering (cpu)
i_service_offering__speed ON service_offering (speed)
i_service_offering__ram_size ON service_offering (ram_size)
i_op_host_planner_reservation__resource_usage ON op_host_planner_reservation (resource_usage)
i_storage_pool__pool_type ON storage_pool (pool_type)
i_storage_pool__data_center_id__status__scope__hypervisor ON storage_pool (data_center_id, status, scope, hypervisor)
i_router_network_ref__guest_type ON router_network_ref (guest_type)
i_domain_router__role ON domain_router (role)
i_async_job__instance_type__job_status ON async_job (instance_type, job_status)
i_cluster__managed_state ON cluster (managed_state)
INDEXES
            ;;
        Upgrade42010to42100 | Upgrade42040to42100)
            # migrateConfigurationScopeToBitmask (4.23's path reaches 4.21 by Upgrade42040to42100, the
            # same step; its updateKubernetesClusterNodeVersions acts on clusters, of which there are none) (ConfigKey.Scope bits; the column ends last).
            sql 'ALTER TABLE configuration ADD COLUMN new_scope BIGINT DEFAULT 0'
            sql "UPDATE configuration SET new_scope = CASE WHEN scope = 'Global' THEN 1 WHEN scope = 'Zone' THEN 2
                WHEN scope = 'Cluster' THEN 4 WHEN scope = 'StoragePool' THEN 8 WHEN scope = 'ManagementServer' THEN 16
                WHEN scope = 'ImageStore' THEN 32 WHEN scope = 'Domain' THEN 64 WHEN scope = 'Account' THEN 128 ELSE 0 END
                WHERE scope IS NOT NULL"
            sql 'ALTER TABLE configuration DROP COLUMN scope'
            sql "ALTER TABLE configuration CHANGE COLUMN new_scope scope BIGINT NOT NULL DEFAULT 0 COMMENT 'Bitmask for scope(s) of this parameter'"
            ;;
        Upgrade42030to42040 | Upgrade42210to42300)
            # dropUsageVmInstanceIndex (DbUpgradeUtils.dropKeysIfExist; 4.23 again). Upgrade42210to42300's
            # unhideJsInterpretationEnabled moves a hidden configuration row a fresh database lacks.
            sql 'ALTER TABLE `cloud_usage`.`usage_vm_instance` DROP INDEX IF EXISTS `vm_instance_id`'
            ;;
        *) ;;
    esac
}

# Role permission rules as Upgrade41400to41500 inserts them: role (a query), permission, rules;
# RULE_ORDER is the role's sort_order counter.
role_rules() {
    local role="$1" permission="$2" rule
    shift 2
    for rule in "$@"; do
        sql "INSERT INTO role_permissions (uuid, role_id, rule, permission, sort_order)
            VALUES (UUID(), ($role), '$rule', '$permission', $RULE_ORDER) ON DUPLICATE KEY UPDATE rule = rule"
        RULE_ORDER=$((RULE_ORDER + 1))
    done
}

# The ALLOW rules of the role_permissions rows WHERE $2, copied to role $1 in their sort_order.
role_copy() {
    local role="$1" where="$2" n
    n=$(sql "SELECT COUNT(*) FROM role_permissions WHERE $where")
    sql "INSERT INTO role_permissions (uuid, role_id, rule, permission, sort_order)
        SELECT UUID(), ($role), rule, 'ALLOW', $RULE_ORDER + ROW_NUMBER() OVER (ORDER BY sort_order, id) - 1
        FROM role_permissions WHERE $where ON DUPLICATE KEY UPDATE rule = role_permissions.rule"
    RULE_ORDER=$((RULE_ORDER + n))
}
