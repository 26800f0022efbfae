# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""What the node stand-in reads of CloudStack's database to answer as real nodes would (docs/e2e-cloudstack.md,
"The node stand-in"): which VM a public IP and port reach (the network rules the virtual router applies),
which VMs had their Kubernetes version's ISO attached (without it a node never joins), and each cluster's
nodes. Read only."""
from cloud import Database

# A rule answers only on the public IP's current network: a released IP's rules of a removed network may stay
# Active in the database (a deleted cluster's), while its virtual router is gone.
CURRENT = (" AND n.removed IS NULL AND ip.state = 'Allocated'"
           " AND (ip.network_id = fr.network_id OR ip.vpc_id IS NOT NULL)")
# KubernetesClusterActionWorker: the nodes' SSH is forwarded to port 22, the API server listens on 6443.
NODE_SSH_PORT = 22
API_PORT = 6443


class Facts(Database):
    """CloudStack's database of one line (4.20's lacks the etcd columns, 4.23's has vm_iso_map)."""

    def __init__(self, socket):
        super().__init__(socket)
        self.columns = {}

    def column(self, table, column):
        if (table, column) not in self.columns:
            self.columns[(table, column)] = self.has_column(table, column)
        return self.columns[(table, column)]

    def forwarded_vm(self, ip, port):
        """The VM an SSH connection to ip:port reaches, or None: an Active TCP port-forwarding rule of that
        public IP maps the port to the VM's port 22, and, outside a VPC, an Active firewall rule opens the port
        (the virtual router drops what no rule allows)."""
        rows = self.query((
            "SELECT pf.instance_id, n.vpc_id IS NOT NULL FROM firewall_rules fr"
            " JOIN port_forwarding_rules pf ON pf.id = fr.id"
            " JOIN user_ip_address ip ON ip.id = fr.ip_address_id"
            " JOIN networks n ON n.id = fr.network_id"
            " WHERE ip.public_ip_address = '%s' AND fr.purpose = 'PortForwarding' AND fr.state = 'Active'"
            " AND LOWER(fr.protocol) = 'tcp' AND %d BETWEEN fr.start_port AND fr.end_port"
            " AND pf.dest_port_start = %d" + CURRENT + " ORDER BY fr.id LIMIT 1") % (ip, port, NODE_SSH_PORT))
        if not rows:
            return None
        vm, in_vpc = int(rows[0][0]), rows[0][1] == "1"
        return vm if in_vpc or self.firewall_open(ip, port) else None

    def firewall_open(self, ip, port):
        return bool(self.query((
            "SELECT 1 FROM firewall_rules fr JOIN user_ip_address ip ON ip.id = fr.ip_address_id"
            " JOIN networks n ON n.id = fr.network_id"
            " WHERE ip.public_ip_address = '%s' AND fr.purpose = 'Firewall' AND fr.state = 'Active'"
            " AND LOWER(fr.protocol) = 'tcp' AND %d BETWEEN fr.start_port AND fr.end_port"
            " AND IFNULL(fr.traffic_type, 'Ingress') = 'Ingress'" + CURRENT) % (ip, port)))

    def api_vms(self, ip):
        """The VMs an HTTPS connection to ip:6443 may reach: those of an Active load-balancing rule on that
        public port ("api-lb"), or of an Active port-forwarding rule (a VPC tier without conserve mode)."""
        balanced = self.query((
            "SELECT m.instance_id FROM firewall_rules fr JOIN load_balancing_rules lb ON lb.id = fr.id"
            " JOIN load_balancer_vm_map m ON m.load_balancer_id = lb.id"
            " JOIN user_ip_address ip ON ip.id = fr.ip_address_id JOIN networks n ON n.id = fr.network_id"
            " WHERE ip.public_ip_address = '%s' AND fr.purpose = 'LoadBalancing' AND fr.state = 'Active'"
            " AND fr.start_port = %d AND m.`revoke` = 0" + CURRENT + " ORDER BY m.id") % (ip, API_PORT))
        forwarded = self.query((
            "SELECT pf.instance_id FROM firewall_rules fr JOIN port_forwarding_rules pf ON pf.id = fr.id"
            " JOIN user_ip_address ip ON ip.id = fr.ip_address_id JOIN networks n ON n.id = fr.network_id"
            " WHERE ip.public_ip_address = '%s' AND fr.purpose = 'PortForwarding' AND fr.state = 'Active'"
            " AND fr.start_port = %d" + CURRENT + " ORDER BY fr.id") % (ip, API_PORT))
        return [int(r[0]) for r in balanced + forwarded]

    def cluster_of(self, vm):
        """(cluster id, name, version) of the live cluster this VM is mapped to, or None."""
        rows = self.query(
            "SELECT kc.id, kc.name, v.semantic_version FROM kubernetes_cluster_vm_map m"
            " JOIN kubernetes_cluster kc ON kc.id = m.cluster_id"
            " JOIN kubernetes_supported_version v ON v.id = kc.kubernetes_version_id"
            " WHERE m.vm_id = %d AND kc.removed IS NULL ORDER BY kc.id DESC LIMIT 1" % vm)
        return (int(rows[0][0]), rows[0][1], rows[0][2]) if rows else None

    def nodes(self, cluster_id):
        """The cluster's Kubernetes nodes in the order of its VM map: (VM id, host name, VM state). Its etcd
        nodes (4.21+: the column etcd_node) run etcd only and are no Kubernetes nodes."""
        etcd = " AND NOT m.etcd_node" if self.column("kubernetes_cluster_vm_map", "etcd_node") else ""
        return [(int(r[0]), r[1], r[2]) for r in self.query(
            "SELECT vm.id, vm.host_name, vm.state FROM kubernetes_cluster_vm_map m"
            " JOIN vm_instance vm ON vm.id = m.vm_id WHERE m.cluster_id = %d%s ORDER BY m.id" % (cluster_id, etcd))]

    def iso_holders(self):
        """The mapped VMs that have an ISO of a Kubernetes version attached now (user_vm.iso_id; 4.23 also
        vm_iso_map, its second CD-ROM): KubernetesClusterActionWorker.attachIsoKubernetesVMs. The ISO holds
        the binaries the node's cloud-init installs before kubeadm joins it; it is detached once the nodes
        are Ready, so whoever watches must remember who had it."""
        attached = "SELECT id AS vm_id, iso_id FROM user_vm WHERE iso_id IS NOT NULL"
        if self.column("vm_iso_map", "iso_id"):
            attached += " UNION ALL SELECT vm_id, iso_id FROM vm_iso_map"
        return {int(r[0]) for r in self.query(
            "SELECT DISTINCT a.vm_id FROM (%s) a JOIN kubernetes_cluster_vm_map m ON m.vm_id = a.vm_id"
            " JOIN kubernetes_supported_version v ON v.iso_id = a.iso_id" % attached)}
