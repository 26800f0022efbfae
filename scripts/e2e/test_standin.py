#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The node stand-in is no kinder than real nodes (make standin-test, on CloudStack's own database of each
line, scripts/e2e/standin-test.sh): SSH reaches a VM only through an Active forwarding rule and the firewall
rule that opens its port; a VM that never had its Kubernetes version's ISO is no node (not listed, no
kubectl, no kube-config, no API server); the kube-config has the context kubectl needs.

    test_standin.py --socket MARIADB_SOCKET [unittest options]
"""
import argparse
import os
import sys
import tempfile
import threading
import unittest

from node_standin import Nodes
from standin_facts import Facts

SOCKET = None
BASE = 990000           # ids far above a fresh database's
IP = "203.0.113.7"      # the cluster's source NAT address
ISO = BASE + 90         # the version's ISO (a vm_template row of format ISO)
CONTROL, WORKER = BASE + 11, BASE + 12
LOOSE = " SET SESSION sql_mode = ''; SET SESSION foreign_key_checks = 0; "
TABLES = ("firewall_rules", "port_forwarding_rules", "load_balancing_rules", "load_balancer_vm_map", "user_ip_address",
          "networks", "kubernetes_cluster_vm_map", "kubernetes_cluster", "kubernetes_supported_version", "user_vm",
          "vm_instance")


class StandInTest(unittest.TestCase):
    """One cluster (a control and a worker VM, both Running) in network BASE+1 behind IP, no rule yet."""

    def setUp(self):
        self.facts = Facts(SOCKET)
        self.out = tempfile.mkdtemp(prefix="standin-test-")
        self.nodes = Nodes(self.out, self.facts)
        self.clean()
        self.sql("INSERT INTO networks SET id = %d, name = 'n', traffic_type = 'Guest', vpc_id = NULL;"
                 "INSERT INTO user_ip_address SET id = %d, public_ip_address = '%s', source_network_id = %d,"
                 " network_id = %d, state = 'Allocated';"
                 "INSERT INTO kubernetes_supported_version SET id = %d, uuid = 'v-%d', name = 'v1.29.1',"
                 " semantic_version = '1.29.1', iso_id = %d, state = 'Enabled';"
                 "INSERT INTO kubernetes_cluster SET id = %d, uuid = 'c-%d', name = 'standin', kubernetes_version_id = %d,"
                 " network_id = %d, state = 'Running', node_count = 1, control_node_count = 1"
                 % (BASE + 1, BASE + 2, IP, BASE + 1, BASE + 1, BASE + 3, BASE, ISO, BASE + 4, BASE, BASE + 3, BASE + 1))
        for vm, name in ((CONTROL, "standin-control-1"), (WORKER, "standin-node-2")):
            self.sql("INSERT INTO vm_instance SET id = %d, uuid = 'vm-%d', name = '%s', instance_name = '%s',"
                     " host_name = '%s', state = 'Running', type = 'User', vm_type = 'User';"
                     "INSERT INTO user_vm SET id = %d, iso_id = NULL;"
                     "INSERT INTO kubernetes_cluster_vm_map SET cluster_id = %d, vm_id = %d, control_node = %d"
                     % (vm, vm, name, name, name, vm, BASE + 4, vm, vm == CONTROL))

    def tearDown(self):
        self.clean()

    def sql(self, statements):
        return self.facts.query(LOOSE + statements)

    def clean(self):
        for table in TABLES:
            column = {"load_balancer_vm_map": "load_balancer_id", "kubernetes_cluster_vm_map": "cluster_id"}.get(table, "id")
            self.sql("DELETE FROM %s WHERE %s >= %d AND %s < %d" % (table, column, BASE, column, BASE + 1000))

    def rule(self, rule_id, purpose, start, end, state="Active", vm=None):
        """A firewall_rules row of IP (and, for PortForwarding, its forward to vm's port 22)."""
        self.sql("INSERT INTO firewall_rules SET id = %d, uuid = 'r-%d', ip_address_id = %d, start_port = %d,"
                 " end_port = %d, state = '%s', protocol = 'tcp', purpose = '%s', network_id = %d, xid = 'x',"
                 " traffic_type = 'Ingress'" % (rule_id, rule_id, BASE + 2, start, end, state, purpose, BASE + 1))
        if purpose == "PortForwarding":
            self.sql("INSERT INTO port_forwarding_rules SET id = %d, instance_id = %d, dest_ip_address = '10.1.1.%d',"
                     " dest_port_start = 22, dest_port_end = 22" % (rule_id, vm, vm % 200))

    def attach_iso(self, vm, iso=ISO):
        self.sql("UPDATE user_vm SET iso_id = %s WHERE id = %d" % ("NULL" if iso is None else iso, vm))
        self.nodes.see_isos()

    def listed(self):
        """kubectl get nodes on the control node: {name: status}."""
        cluster = self.facts.cluster_of(CONTROL)
        return {line.split()[0]: line.split()[1] for line in self.nodes.get_nodes(cluster).splitlines()[1:]}

    def test_ssh_reaches_a_vm_only_through_an_active_forward_and_its_firewall_rule(self):
        self.assertIsNone(self.nodes.ssh_vm(IP, 2222), "no rule: the connection is closed")
        self.rule(BASE + 101, "PortForwarding", 2222, 2222, vm=CONTROL)
        self.assertIsNone(self.nodes.ssh_vm(IP, 2222), "a forward without the firewall rule that opens its port")
        self.rule(BASE + 102, "Firewall", 2222, 2223)
        self.assertEqual(CONTROL, self.nodes.ssh_vm(IP, 2222))
        self.assertIsNone(self.nodes.ssh_vm(IP, 2223), "the firewall opens 2223, but nothing forwards it")
        self.assertIsNone(self.nodes.ssh_vm("203.0.113.8", 2222), "another public IP")
        self.rule(BASE + 103, "PortForwarding", 2223, 2223, state="Revoke", vm=WORKER)
        self.assertIsNone(self.nodes.ssh_vm(IP, 2223), "a revoked forward")
        self.sql("UPDATE firewall_rules SET state = 'Active' WHERE id = %d" % (BASE + 103))
        self.assertEqual(WORKER, self.nodes.ssh_vm(IP, 2223))
        self.sql("UPDATE firewall_rules SET state = 'Revoke' WHERE id = %d" % (BASE + 102))
        self.assertIsNone(self.nodes.ssh_vm(IP, 2222), "the firewall rule revoked (a scale re-creating it)")
        self.sql("UPDATE networks SET vpc_id = %d WHERE id = %d" % (BASE + 5, BASE + 1))
        self.assertEqual(CONTROL, self.nodes.ssh_vm(IP, 2222), "a VPC tier has no firewall rules: its ACL opens 22")

    def test_a_released_ips_old_rules_reach_nothing(self):
        # The cluster deleted: its network removed, its IP given to another network whose rules are not made yet.
        self.rule(BASE + 101, "PortForwarding", 2222, 2222, vm=CONTROL)
        self.rule(BASE + 102, "Firewall", 2222, 2223)
        self.assertEqual(CONTROL, self.nodes.ssh_vm(IP, 2222))
        self.sql("UPDATE networks SET removed = NOW() WHERE id = %d" % (BASE + 1))
        self.assertIsNone(self.nodes.ssh_vm(IP, 2222), "the old network's router is gone")
        self.sql("UPDATE networks SET removed = NULL WHERE id = %d;"
                 "UPDATE user_ip_address SET network_id = %d WHERE id = %d" % (BASE + 1, BASE + 6, BASE + 2))
        self.assertIsNone(self.nodes.ssh_vm(IP, 2222), "the IP is another network's now")

    def test_a_vm_that_never_had_its_iso_is_no_node(self):
        self.nodes.see_isos()
        self.assertEqual({}, self.listed(), "no VM joined: kubectl lists none")
        status, out = self.nodes.run(IP, 2222, CONTROL, "sudo /opt/bin/kubectl get nodes | grep -w 'Ready' | wc -l")
        self.assertEqual(1, status)
        self.assertIn("localhost:8080 was refused", out)
        status, out = self.nodes.run(IP, 2222, CONTROL, "sudo cat /etc/kubernetes/user.conf 2>/dev/null || sudo cat"
                                     " /etc/kubernetes/admin.conf")
        self.assertEqual((1, "cat: /etc/kubernetes/admin.conf: No such file or directory\n"), (status, out))

        self.attach_iso(CONTROL)
        self.attach_iso(CONTROL, None)  # detached once Ready: it stays a node
        self.assertEqual({"standin-control-1": "Ready"}, self.listed(), "the worker never had the ISO")
        status, out = self.nodes.run(IP, 2222, CONTROL, "sudo /opt/bin/kubectl get nodes | grep -w 'Ready' | wc -l")
        self.assertEqual((0, "1"), (status, out.strip()))
        self.attach_iso(WORKER, BASE + 91)
        self.assertEqual(1, len(self.listed()), "another ISO than a Kubernetes version's does not join it")
        self.attach_iso(WORKER)
        self.sql("UPDATE vm_instance SET state = 'Stopped' WHERE id = %d" % WORKER)
        self.assertEqual({"standin-control-1": "Ready", "standin-node-2": "NotReady"}, self.listed())
        with open(os.path.join(self.out, "joined")) as f:
            self.assertEqual([CONTROL, WORKER], [int(line) for line in f])

    def test_a_print_hang_prints_a_line_then_holds_until_lifted(self):
        with open(os.path.join(self.out, "inject"), "w") as f:
            f.write("print-hang delete-pv\n")
        early, done = [], []
        worker = threading.Thread(target=lambda: done.append(self.nodes.run(IP, 2222, CONTROL, "sudo delete-pv x",
                                                                            early=early.append)), daemon=True)
        worker.start()
        worker.join(3)
        self.assertTrue(worker.is_alive(), "the command holds while the line is there")
        self.assertEqual(["stand-in: sudo started\n"], early, "a line comes before it holds")
        with open(os.path.join(self.out, "inject"), "w") as f:
            f.write("")
        worker.join(10)
        self.assertEqual([(0, "")], done, "lifted: it ends")

    def test_the_kube_config_is_one_kubectl_accepts(self):
        self.attach_iso(CONTROL)
        status, out = self.nodes.run(IP, 2222, CONTROL, "sudo cat /etc/kubernetes/admin.conf")
        self.assertEqual(0, status)
        self.assertIn("current-context: kubernetes-admin@standin\n", out)
        self.assertIn("  name: kubernetes-admin@standin\n", out)
        self.assertIn("    server: https://%s:6443\n" % IP, out)
        self.assertIn("users:\n- name: kubernetes-admin\n", out)

    def test_the_api_server_answers_through_its_rule_from_a_running_node(self):
        self.assertIsNone(self.nodes.api_cluster(IP), "no load-balancing rule")
        self.sql("INSERT INTO firewall_rules SET id = %d, ip_address_id = %d, start_port = 6443, end_port = 6443,"
                 " state = 'Active', protocol = 'tcp', purpose = 'LoadBalancing', network_id = %d, xid = 'x';"
                 "INSERT INTO load_balancing_rules SET id = %d, name = 'api-lb', default_port_start = 6443,"
                 " default_port_end = 6443, algorithm = 'roundrobin';"
                 "INSERT INTO load_balancer_vm_map SET load_balancer_id = %d, instance_id = %d, `revoke` = 0"
                 % (BASE + 201, BASE + 2, BASE + 1, BASE + 201, BASE + 201, CONTROL))
        self.assertIsNone(self.nodes.api_cluster(IP), "the control VM never joined: no API server runs")
        self.attach_iso(CONTROL)
        self.assertEqual("standin", self.nodes.api_cluster(IP)[1])
        self.sql("UPDATE vm_instance SET state = 'Stopped' WHERE id = %d" % CONTROL)
        self.assertIsNone(self.nodes.api_cluster(IP), "the control VM stopped")

    def test_the_second_cdrom_of_4_23_counts(self):
        if not self.facts.has_column("vm_iso_map", "iso_id"):
            self.skipTest("this line has no vm_iso_map (4.23+)")
        self.sql("INSERT INTO vm_iso_map SET vm_id = %d, iso_id = %d, device_seq = 4, created = NOW()" % (WORKER, ISO))
        try:
            self.nodes.see_isos()
            self.assertEqual({WORKER}, self.nodes.joined)
        finally:
            self.sql("DELETE FROM vm_iso_map WHERE vm_id = %d" % WORKER)


def main():
    global SOCKET
    p = argparse.ArgumentParser()
    p.add_argument("--socket", required=True)
    args, rest = p.parse_known_args()
    SOCKET = args.socket
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
