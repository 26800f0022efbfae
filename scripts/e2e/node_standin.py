#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The Kubernetes nodes a simulated VM cannot be: what CKS's workers reach on a cluster's public IP.

CloudStack's simulator runs no guest, so a CKS worker waits for its control node's SSH port until its
timeout and a cluster never reaches Running. This stand-in answers in the nodes' place, on every
address of the simulator's public range (an AnyIP route in its own network namespace), no kinder than
real nodes (docs/e2e-cloudstack.md, "The node stand-in", says what each rule mirrors):
- SSH reaches a VM only through an Active port-forwarding rule of that public IP and port to the VM's
  port 22, with the firewall rule that opens the port (outside a VPC); else the connection is closed.
- A VM joins Kubernetes only once its version's ISO was attached (the binaries its cloud-init installs);
  a VM that never had it is no node: kubectl does not list it, and on it kubectl, the kube-config and the
  API server are not there. A joined node is Ready while its VM is Running and its cluster is not held:
  the scenario holds a cluster (its name in OUT/held) to keep an operation waiting for its nodes.
- The API server's /version on 6443 answers through an Active load-balancing (or forwarding) rule of
  that IP to a joined, Running VM; else the connection is closed unanswered.
Every command the servers ran is logged to OUT/commands.log, credentials masked; the VMs that joined to
OUT/joined.

    node_standin.py --out DIR --socket MARIADB_SOCKET
"""
import argparse
import json
import os
import re
import ssl
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standin_facts import API_PORT, Facts

SSH_PORTS = range(2222, 2232)   # CLUSTER_NODES_DEFAULT_START_SSH_PORT, one per node
SECRET_ARGS = re.compile(r"(-[ks]) '[^']*'")
# The longest an injected hang lasts (the run lifts it sooner): an SSH exec that never returns, bounded.
HANG_SECONDS = 1800


class Nodes:
    """What a cluster's nodes answer: kubectl's view of them, the upgrade script, everything else succeeds."""

    def __init__(self, out, facts):
        self.out = out
        self.facts = facts
        self.upgraded = {}          # (cluster id, VM id) -> version the upgrade script installed
        self.joined = set()         # VMs that had their version's ISO: Kubernetes nodes from then on
        self.lock = threading.Lock()

    def watch_isos(self):
        """Once a second, the VMs holding a Kubernetes version's ISO join (the ISO stays attached until the
        worker saw the nodes Ready, so a second is short enough)."""
        while True:
            try:
                self.see_isos()
            except Exception as e:  # the database is away for a moment: the next round sees it
                self.log("watching the ISOs failed: %r" % e)
            time.sleep(1)

    def see_isos(self):
        new = self.facts.iso_holders() - self.joined
        if new:
            with self.lock:
                self.joined |= new
                with open(os.path.join(self.out, "joined"), "w") as f:
                    f.write("".join("%d\n" % vm for vm in sorted(self.joined)))

    def held(self, name):
        try:
            with open(os.path.join(self.out, "held")) as f:
                return name in {line.strip() for line in f}
        except OSError:
            return False

    def log(self, line):
        with self.lock, open(os.path.join(self.out, "commands.log"), "a") as f:
            f.write("%s %s\n" % (time.strftime("%H:%M:%S"), SECRET_ARGS.sub(r"\1 '***'", line)))

    def injected(self, command):
        """The fault the run asks for on this command: OUT/inject holds lines 'hang TEXT' (the command does not
        return while the line is there, at most HANG_SECONDS), 'print-hang TEXT' (it prints a line first, as a
        script that started its work, then holds the same way) or 'fail TEXT' (it exits 1)."""
        try:
            with open(os.path.join(self.out, "inject")) as f:
                for line in f:
                    kind, _, text = line.strip().partition(" ")
                    if text and text in command:
                        return kind
        except OSError:
            pass
        return None

    def get_nodes(self, cluster):
        """kubectl get nodes: the VMs that joined (etcd nodes are none), Ready while Running and not held."""
        cid, name, version = cluster
        held = self.held(name)
        lines = ["NAME STATUS ROLES AGE VERSION"]
        for i, (vm, host, state) in enumerate(self.facts.nodes(cid)):
            if vm not in self.joined:
                continue
            ready = "Ready" if state == "Running" and not held else "NotReady"
            role = "control-plane" if i == 0 else "<none>"
            lines.append("%s %s %s 5m v%s" % (host.lower(), ready, role, self.upgraded.get((cid, vm), version)))
        return "\n".join(lines) + "\n"

    def ssh_vm(self, ip, port):
        """The VM an SSH connection to ip:port reaches, or None (no rule: the connection is closed)."""
        try:
            return self.facts.forwarded_vm(ip, port)
        except Exception as e:  # the database is away: as if no rule answered
            self.log("%s:%d rule lookup failed: %r" % (ip, port, e))
            return None

    def api_cluster(self, ip):
        """The cluster whose API server ip:6443 reaches: through its rule to a joined, Running VM."""
        for vm in self.facts.api_vms(ip):
            cluster = self.facts.cluster_of(vm) if vm in self.joined else None
            if cluster and any(v == vm and state == "Running" for v, _, state in self.facts.nodes(cluster[0])):
                return cluster
        return None

    def kube_config(self, ip, cluster):
        """What kubeadm writes to /etc/kubernetes/admin.conf (the endpoint is the public IP: CKS passes it as
        --control-plane-endpoint), with the context kubectl needs."""
        return ("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    insecure-skip-tls-verify: true\n"
                "    server: https://%s:%d\n  name: %s\ncontexts:\n- context:\n    cluster: %s\n"
                "    user: kubernetes-admin\n  name: kubernetes-admin@%s\ncurrent-context: kubernetes-admin@%s\n"
                "preferences: {}\nusers:\n- name: kubernetes-admin\n  user:\n    token: stand-in-%d\n"
                % (ip, API_PORT, cluster[1], cluster[1], cluster[1], cluster[1], cluster[0]))

    def run(self, ip, port, vm, command, early=None):
        """(exit status, output) of a command on VM vm, reached at ip:port (SshHelper reads stderr with stdout);
        early(text) sends output before the command ends."""
        cluster = self.facts.cluster_of(vm)
        self.log("%s:%d vm %d %s %s" % (ip, port, vm, cluster[1] if cluster else "-", command))
        fault = self.injected(command)
        if fault == "fail":
            return 1, "stand-in: failed as the run asked\n"
        if fault == "print-hang" and early:
            early("stand-in: %s started\n" % command.split()[0])
        end = time.monotonic() + HANG_SECONDS
        while fault in ("hang", "print-hang") and time.monotonic() < end:
            time.sleep(1)
            fault = self.injected(command)
        upgrade = re.search(r"upgrade-kubernetes\S*\.sh (\S+)", command)
        if upgrade and cluster:
            self.upgraded[(cluster[0], vm)] = upgrade.group(1)
        joined = cluster is not None and vm in self.joined
        if "/etc/kubernetes/" in command and " cat " in " " + command:
            if not joined:  # kubeadm never ran here
                return 1, "cat: /etc/kubernetes/admin.conf: No such file or directory\n"
            return 0, self.kube_config(ip, cluster)
        if "kubectl" in command and not joined:
            return 1, ("The connection to the server localhost:8080 was refused - did you specify the right"
                       " host or port?\n")
        if "kubectl get nodes" in command:
            rest = command.split("|", 1)
            if len(rest) == 1:
                return 0, self.get_nodes(cluster)
            out = subprocess.run(["sh", "-c", rest[1]], input=self.get_nodes(cluster), capture_output=True,
                                 text=True, timeout=10)
            return out.returncode, out.stdout
        if "kubectl get pods" in command:
            return 0, ("NAME READY STATUS RESTARTS AGE\n"
                       "kubernetes-dashboard-6b8d7f6c5-x2x7q 1/1 Running 0 5m\n")
        return 0, ""


def api_server(out, nodes):
    """The API server's /version over TLS (the worker trusts any certificate)."""
    cert, key = os.path.join(out, "api.crt"), os.path.join(out, "api.key")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj",
                        "/CN=kubernetes", "-keyout", key, "-out", cert], check=True, capture_output=True, timeout=60)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            try:
                cluster = nodes.api_cluster(self.connection.getsockname()[0])
            except Exception as e:  # the database is away: as if no rule answered
                nodes.log("https rule lookup failed: %r" % e)
                cluster = None
            if cluster is None:
                # No rule reaches a running API server: nothing answers (the worker's request fails).
                self.close_connection = True
                return
            version = cluster[2]
            body = json.dumps({"major": version.split(".")[0], "minor": version.split(".")[1],
                               "gitVersion": "v" + version}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt, *args):
            nodes.log("%s:%d https %s" % (self.connection.getsockname()[0], API_PORT, fmt % args))

    httpd = ThreadingHTTPServer(("0.0.0.0", API_PORT), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    httpd.serve_forever()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--socket", required=True)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import paramiko  # the e2e's venv has it; the stand-in's tests (test_standin.py) need none
    from standin_ssh import listen_ssh
    nodes = Nodes(args.out, Facts(args.socket))
    threading.Thread(target=nodes.watch_isos, daemon=True).start()
    host_key = paramiko.RSAKey.generate(2048)
    for port in SSH_PORTS:
        threading.Thread(target=listen_ssh, args=(port, host_key, nodes), daemon=True).start()
    threading.Thread(target=api_server, args=(args.out, nodes), daemon=True).start()
    print("node stand-in: ssh %d-%d, api %d" % (SSH_PORTS[0], SSH_PORTS[-1], API_PORT), flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
