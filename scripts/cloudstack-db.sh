#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# CloudStack's own database, built from CloudStack's own SQL files in CloudStack's own order, for
# the tests and benchmarks that must run on the schema a real management server has.
#
#   scripts/cloudstack-db.sh build [LINE]   build the `cloud` and `cloud_usage` databases of a
#                                           release line (cloudstack/lines.tsv; default main) on a
#                                           private MariaDB and keep their dump (cached; see below)
#   scripts/cloudstack-db.sh load [LINE]    load the dump into the server of scripts/mariadb.sh (same
#                                           CKS_MARIADB_PORT / CKS_MARIADB_DIR), replacing `cloud` and
#                                           `cloud_usage`; builds first when the cache is empty
#   scripts/cloudstack-db.sh dump [LINE]    print the path of the cached dump (building it if needed)
#
# Each line's database is built from that line's own source tarball, along the part of the upgrade
# path below that leads to the line's version (cloudstack/lines.tsv, column database); a version past
# the last upgrade (4.20.2.0: no upgrade writes it) is reached as CloudStack's DatabaseUpgradeChecker
# reaches it, by its NoopDbUpgrade: one more `version` row.
#
# What a developer database gets from `mvn -P developer -Ddeploydb` (developer/pom.xml, profile
# deploydb, which runs com.cloud.upgrade.DatabaseCreator):
#   1. DatabaseCreator.initDB: drop and create `cloud` and `cloud_usage`;
#   2. the SQL files create-schema.sql, create-schema-premium.sql, templates.sql (setup/db) and
#      developer/developer-prefill.sql: the 4.0.0 database;
#   3. DatabaseUpgradeChecker.check -> upgrade(): the procedures (META-INF/db/procedures), then
#      every DbUpgrade of the path from 4.0.0 to the code's version (its prepare scripts, its
#      performDataMigration, a `version` row, its cleanup scripts, the row marked Complete),
#      then the views (META-INF/db/views).
# Each SQL file is split into statements as CloudStack's ScriptRunner splits them (split_statements
# below) and sent to the server one by one with the management server's session sql_mode, stopping
# at the first failed statement. The schema changes some upgrades make in Java are done by hand
# here (java_steps), each naming its class; their data changes act on rows a fresh database has
# none of, and are listed there too.
#
# The result is cached per sha256 of the source tarball and of this script, in
# ${CKS_CACHE_DIR:-~/.cache/cks-state}/cloudstack-db/<tarball sha256>-<script sha256, 12>/.
# The tarballs are found by scripts/shared.sh (CKS_SHARED_DIR overrides).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
LINE="${2:-main}"
TARBALL="$(line_tarball "$LINE")" || exit 1
FINAL_VERSION="$(line_field "$LINE" database)" || exit 1
CACHE_ROOT="${CKS_CACHE_DIR:-${HOME:-/tmp}/.cache/cks-state}/cloudstack-db"
BUILD_PORT=3437
BUILD_DIR="$ROOT/.mariadb/cloudstack-db-$BUILD_PORT"
# The management server's session (utils/conf/db.properties, db.cloud.url.params).
SESSION="SET SESSION sql_mode='STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'; SET SESSION time_zone='+00:00';"
DELIM='@@cks-end@@'
export PATH="$PATH:/usr/sbin:/usr/local/sbin:/sbin"

log() { echo "cloudstack-db.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# The upgrade path from 4.0.0 to 4.22.0.0 (a line takes the part up to its version): DatabaseUpgradeChecker's hierarchy, every node at or
# above 4.0.0 and below the code's version, distinct by upgraded version (the first wins: so
# Upgrade443to444 runs after Upgrade442to450, and Upgrade444to450 does not run). Columns: class,
# version it writes, prepare scripts, cleanup scripts (META-INF/db/, comma-separated, - for none).
UPGRADES="
Upgrade40to41       4.1.0    schema-40to410.sql         schema-40to410-cleanup.sql
Upgrade410to420     4.2.0    schema-410to420.sql        schema-410to420-cleanup.sql
Upgrade420to421     4.2.1    schema-420to421.sql        -
Upgrade421to430     4.3.0    schema-421to430.sql        schema-421to430-cleanup.sql
Upgrade430to440     4.4.0    schema-430to440.sql        schema-430to440-cleanup.sql
Upgrade440to441     4.4.1    schema-440to441.sql        schema-440to441-cleanup.sql
Upgrade441to442     4.4.2    schema-441to442.sql        -
Upgrade442to450     4.5.0    schema-442to450.sql        schema-442to450-cleanup.sql
Upgrade443to444     4.4.4    schema-443to444.sql        -
Upgrade450to451     4.5.1    schema-450to451.sql        schema-450to451-cleanup.sql
Upgrade451to452     4.5.2    schema-451to452.sql        schema-451to452-cleanup.sql
Upgrade452to453     4.5.3    schema-452to453.sql        schema-452to453-cleanup.sql
Upgrade453to460     4.6.0    schema-452to460.sql        schema-452to460-cleanup.sql
Upgrade460to461     4.6.1    schema-460to461.sql        schema-460to461-cleanup.sql
Upgrade461to470     4.7.0    schema-461to470.sql        schema-461to470-cleanup.sql
Upgrade470to471     4.7.1    schema-470to471.sql        schema-470to471-cleanup.sql
Upgrade471to480     4.8.0    schema-471to480.sql        schema-471to480-cleanup.sql
Upgrade480to481     4.8.1    schema-480to481.sql        schema-480to481-cleanup.sql
Upgrade481to490     4.9.0    schema-481to490.sql        schema-481to490-cleanup.sql
Upgrade490to4910    4.9.1.0  schema-490to4910.sql       schema-490to4910-cleanup.sql
Upgrade4910to4920   4.9.2.0  schema-4910to4920.sql      schema-4910to4920-cleanup.sql
Upgrade4920to4930   4.9.3.0  schema-4920to4930.sql      schema-4920to4930-cleanup.sql
Upgrade4930to41000  4.10.0.0 schema-4930to41000.sql     schema-4930to41000-cleanup.sql
Upgrade41000to41100 4.11.0.0 schema-41000to41100.sql    schema-41000to41100-cleanup.sql
Upgrade41100to41110 4.11.1.0 schema-41100to41110.sql    schema-41100to41110-cleanup.sql
Upgrade41110to41120 4.11.2.0 schema-41110to41120.sql    schema-41110to41120-cleanup.sql
Upgrade41120to41130 4.11.3.0 -                          -
Upgrade41120to41200 4.12.0.0 schema-41120to41200.sql    schema-41120to41200-cleanup.sql
Upgrade41200to41300 4.13.0.0 schema-41200to41300.sql    schema-41200to41300-cleanup.sql
Upgrade41300to41310 4.13.1.0 -                          -
Upgrade41310to41400 4.14.0.0 schema-41310to41400.sql    schema-41310to41400-cleanup.sql
Upgrade41400to41500 4.15.0.0 schema-41400to41500.sql    schema-41400to41500-cleanup.sql
Upgrade41500to41510 4.15.1.0 schema-41500to41510.sql    schema-41500to41510-cleanup.sql
Upgrade41510to41520 4.15.2.0 schema-41510to41520.sql    schema-41510to41520-cleanup.sql
Upgrade41520to41600 4.16.0.0 schema-41520to41600.sql    schema-41520to41600-cleanup.sql
Upgrade41600to41610 4.16.1.0 schema-41600to41610.sql    schema-41600to41610-cleanup.sql
Upgrade41610to41700 4.17.0.0 schema-41610to41700.sql    schema-41610to41700-cleanup.sql
Upgrade41700to41710 4.17.1.0 schema-41700to41710.sql    schema-41700to41710-cleanup.sql
Upgrade41710to41720 4.17.2.0 -                          -
Upgrade41720to41800 4.18.0.0 schema-41720to41800.sql    schema-41720to41800-cleanup.sql
Upgrade41800to41810 4.18.1.0 schema-41800to41810.sql    schema-41800to41810-cleanup.sql
Upgrade41810to41900 4.19.0.0 schema-41810to41900.sql    schema-41810to41900-cleanup.sql
Upgrade41900to41910 4.19.1.0 schema-41900to41910.sql    schema-41900to41910-cleanup.sql
Upgrade41910to42000 4.20.0.0 schema-41910to42000.sql    schema-41910to42000-cleanup.sql
Upgrade42000to42010 4.20.1.0 schema-42000to42010.sql    schema-42000to42010-cleanup.sql
Upgrade42010to42100 4.21.0.0 schema-42010to42100.sql    schema-42010to42100-cleanup.sql
Upgrade42100to42200 4.22.0.0 schema-42100to42200.sql    schema-42100to42200-cleanup.sql
"

# Whether version $1 is at or below version $2.
version_le() {
    [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -1)" = "$1" ]
}

# ScriptRunner.runScript (framework/db/.../ScriptRunner.java): a line whose trimmed text starts
# with --, // or # is skipped, as is a blank one; a line whose trimmed text ends with ';' ends the
# statement (its text up to the last ';'); any other line is added up to its first "--" (inside a
# string too). Lines are joined with a space. A statement is followed by a line holding $DELIM,
# the client's delimiter, so that the client sends each one whole (procedure bodies included).
split_statements() {
    awk -v delim="$DELIM" '
        {
            line = $0
            trimmed = line
            gsub(/^[\001-\040]+|[\001-\040]+$/, "", trimmed)
            if (trimmed == "" || substr(trimmed, 1, 2) == "--" || substr(trimmed, 1, 2) == "//" || substr(trimmed, 1, 1) == "#") {
                next
            }
            if (substr(trimmed, length(trimmed), 1) == ";") {
                last = 0
                for (i = length(line); i > 0; i--) { if (substr(line, i, 1) == ";") { last = i; break } }
                command = command substr(line, 1, last - 1) " "
                print command
                print delim
                command = ""
                next
            }
            i = index(line, "--")
            command = command (i ? substr(line, 1, i - 1) : line) " "
        }
    ' "$1"
}

client() {
    "$(command -v mariadb || command -v mysql)" --no-defaults --protocol=socket --socket="$SOCK" -uroot \
        --batch --skip-column-names "$@"
}

# Runs one SQL file as ScriptRunner would, in database $1 (the connection's default database).
run_file() {
    local db="$1" file="$2" out
    [ -f "$file" ] || die "missing SQL file: $file"
    if ! out=$( { echo "DELIMITER $DELIM"; echo "$SESSION"; echo "$DELIM"; split_statements "$file"; } |
        client --binary-mode "$db" 2>&1); then
        log "a statement of ${file#"$SRC"/} failed: $out"
        exit 1
    fi
}

sql() {
    client cloud -e "$SESSION $1"
}

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
        Upgrade42010to42100)
            # migrateConfigurationScopeToBitmask (ConfigKey.Scope bits; the column ends last).
            sql 'ALTER TABLE configuration ADD COLUMN new_scope BIGINT DEFAULT 0'
            sql "UPDATE configuration SET new_scope = CASE WHEN scope = 'Global' THEN 1 WHEN scope = 'Zone' THEN 2
                WHEN scope = 'Cluster' THEN 4 WHEN scope = 'StoragePool' THEN 8 WHEN scope = 'ManagementServer' THEN 16
                WHEN scope = 'ImageStore' THEN 32 WHEN scope = 'Domain' THEN 64 WHEN scope = 'Account' THEN 128 ELSE 0 END
                WHERE scope IS NOT NULL"
            sql 'ALTER TABLE configuration DROP COLUMN scope'
            sql "ALTER TABLE configuration CHANGE COLUMN new_scope scope BIGINT NOT NULL DEFAULT 0 COMMENT 'Bitmask for scope(s) of this parameter'"
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

build() {
    local sha="$1" out="$2"
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"; CKS_MARIADB_PORT=$BUILD_PORT CKS_MARIADB_DIR=$BUILD_DIR "$ROOT/scripts/mariadb.sh" stop >/dev/null 2>&1 || true' EXIT
    log "extracting CloudStack's SQL files (tarball sha256 ${sha:0:12})"
    tar -xzf "$TARBALL" -C "$WORK" cloudstack/setup/db cloudstack/developer/developer-prefill.sql \
        cloudstack/engine/schema/src/main/resources/META-INF/db
    SRC="$WORK/cloudstack"
    META="$SRC/engine/schema/src/main/resources/META-INF/db"
    local meta="$META"
    CKS_MARIADB_PORT=$BUILD_PORT CKS_MARIADB_DIR=$BUILD_DIR "$ROOT/scripts/mariadb.sh" stop >/dev/null 2>&1 || true
    CKS_MARIADB_PORT=$BUILD_PORT CKS_MARIADB_DIR=$BUILD_DIR "$ROOT/scripts/mariadb.sh" start
    SOCK="/tmp/cks-mariadb-$BUILD_PORT.sock"
    local started=$SECONDS
    # DatabaseCreator.initDB, for --database=cloud,usage.
    client -e 'DROP DATABASE IF EXISTS `cloud`; CREATE DATABASE `cloud`;
        DROP DATABASE IF EXISTS `cloud_usage`; CREATE DATABASE `cloud_usage`;'
    local f
    for f in setup/db/create-schema.sql setup/db/create-schema-premium.sql setup/db/templates.sql \
        developer/developer-prefill.sql; do
        log "running $f"
        run_file cloud "$SRC/$f"
    done
    [ "$(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1")" = 4.0.0 ] ||
        die "create-schema.sql did not leave version 4.0.0"
    log "running the procedures"
    for f in $(cd "$meta/procedures" && LC_ALL=C ls); do
        run_file cloud "$meta/procedures/$f"
    done
    local class version prepare cleanup n=0
    while read -r class version prepare cleanup; do
        [ -n "$class" ] || continue
        version_le "$version" "$FINAL_VERSION" || continue
        n=$((n + 1))
        log "upgrade $n: $class -> $version"
        if [ "$prepare" != - ]; then
            for f in ${prepare//,/ }; do run_file cloud "$meta/$f"; done
        fi
        java_steps "$class"
        sql "INSERT INTO version (version, updated, step) VALUES ('$version', UTC_TIMESTAMP(), 'Upgrade')"
        if [ "$cleanup" != - ]; then
            for f in ${cleanup//,/ }; do run_file cloud "$meta/$f"; done
        fi
        sql "UPDATE version SET step = 'Complete', updated = UTC_TIMESTAMP() WHERE version = '$version'"
    done <<<"$UPGRADES"
    if [ "$(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1")" != "$FINAL_VERSION" ]; then
        # DatabaseUpgradeChecker.calculateUpgradePath: no upgrade writes this version, a NoopDbUpgrade does.
        log "NoopDbUpgrade -> $FINAL_VERSION"
        sql "INSERT INTO version (version, updated, step) VALUES ('$FINAL_VERSION', UTC_TIMESTAMP(), 'Upgrade')"
        sql "UPDATE version SET step = 'Complete', updated = UTC_TIMESTAMP() WHERE version = '$FINAL_VERSION'"
    fi
    log "running the views"
    for f in $(cd "$meta/views" && LC_ALL=C ls); do
        run_file cloud "$meta/views/$f"
    done
    [ "$(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1")" = "$FINAL_VERSION" ] ||
        die "the upgrades did not end at $FINAL_VERSION"
    local tables views
    tables=$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cloud' AND TABLE_TYPE = 'BASE TABLE'")
    views=$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cloud' AND TABLE_TYPE = 'VIEW'")
    log "built line $LINE, version $FINAL_VERSION: $tables tables, $views views in cloud, $n upgrades, $((SECONDS - started)) s"
    mkdir -p "$out.tmp"
    "$(command -v mariadb-dump || command -v mysqldump)" --no-defaults --protocol=socket --socket="$SOCK" -uroot \
        --skip-dump-date --routines --triggers --single-transaction --databases cloud cloud_usage |
        gzip -n >"$out.tmp/cloudstack.sql.gz"
    printf 'version\t%s\ntables\t%s\nviews\t%s\nupgrades\t%s\ntarball_sha256\t%s\n' \
        "$FINAL_VERSION" "$tables" "$views" "$n" "$sha" >"$out.tmp/manifest.tsv"
    rm -rf "$out"
    mv "$out.tmp" "$out"
    # Builds of an older script for the same tarball are stale.
    find "$(dirname "$out")" -mindepth 1 -maxdepth 1 -type d -name "$sha-*" ! -name "$(basename "$out")" -exec rm -rf {} +
}

cache_dir() {
    local tar_sha script_sha
    tar_sha="$(tarball_sha256 "$TARBALL")" || exit 1
    script_sha=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-12)
    echo "$CACHE_ROOT/$tar_sha-$script_sha"
}

ensure_built() {
    local dir
    dir="$(cache_dir)" || exit 1
    if [ ! -f "$dir/cloudstack.sql.gz" ]; then
        (build "$(basename "$dir" | cut -d- -f1)" "$dir") >&2
    fi
    echo "$dir/cloudstack.sql.gz"
}

load() {
    local dump port
    dump="$(ensure_built)" || exit 1
    port="${CKS_MARIADB_PORT:-3407}"
    SOCK="/tmp/cks-mariadb-$port.sock"
    [ -S "$SOCK" ] || die "no server on $SOCK: run scripts/mariadb.sh start first"
    local started=$SECONDS
    client -e 'DROP DATABASE IF EXISTS `cloud`; DROP DATABASE IF EXISTS `cloud_usage`;'
    gunzip -c "$dump" | client
    log "loaded CloudStack $(sql "SELECT version FROM version ORDER BY id DESC LIMIT 1") (line $LINE) into the server on port $port ($((SECONDS - started)) s)"
}

case "${1:-}" in
    build) ensure_built >/dev/null ;;
    load) load ;;
    dump) ensure_built ;;
    *) die "usage: $0 build|load|dump [LINE]" ;;
esac
