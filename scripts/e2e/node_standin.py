#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The Kubernetes nodes a simulated VM cannot be: what CKS's workers reach on a cluster's public IP.

CloudStack's simulator runs no guest, so a CKS worker waits for its control node's SSH port until its
timeout and a cluster never reaches Running. This stand-in answers in the nodes' place, on every
address of the simulator's public range (an AnyIP route in its own network namespace): SSH on the
ports the port-forwarding rules open (2222 onwards: the control node, then the workers) and the API
server's /version on 6443. A node is Ready when its VM is Running in CloudStack's database (read only)
and its cluster is not held: the scenario holds a cluster (its name in OUT/held) to keep an operation
waiting for its nodes, the window in which a management server is killed. Every command the servers
ran is logged to OUT/commands.log, credentials masked.

    node_standin.py --out DIR --socket MARIADB_SOCKET
"""
import argparse
import json
import os
import queue
import re
import socket
import ssl
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import paramiko

from cloud import Database

SSH_PORTS = range(2222, 2232)   # CLUSTER_NODES_DEFAULT_START_SSH_PORT, one per node
API_PORT = 6443                 # KubernetesClusterActionWorker.CLUSTER_API_PORT
SECRET_ARGS = re.compile(r"(-[ks]) '[^']*'")
# The longest an injected hang lasts (the run lifts it sooner): an SSH exec that never returns, bounded.
HANG_SECONDS = 1800


class Cloud(Database):
    """CloudStack's database, read only."""
    etcd_column = None

    def cluster_at(self, ip):
        """The live cluster whose network has this public address: (id, name, version)."""
        rows = self.query(
            "SELECT kc.id, kc.name, v.semantic_version FROM kubernetes_cluster kc"
            " JOIN user_ip_address ip ON ip.network_id = kc.network_id"
            " JOIN kubernetes_supported_version v ON v.id = kc.kubernetes_version_id"
            " WHERE ip.public_ip_address = '%s' AND kc.removed IS NULL ORDER BY kc.id DESC LIMIT 1" % ip)
        return (int(rows[0][0]), rows[0][1], rows[0][2]) if rows else None

    def nodes(self, cluster_id):
        """The cluster's Kubernetes nodes in the order of its VM map: (host name, VM state, private IP). Its
        etcd nodes (4.21+: the column etcd_node) run etcd only and are no Kubernetes nodes."""
        if self.etcd_column is None:
            self.etcd_column = self.has_column("kubernetes_cluster_vm_map", "etcd_node")
        return self.query(
            "SELECT vm.host_name, vm.state, IFNULL(vm.private_ip_address, '') FROM kubernetes_cluster_vm_map m"
            " JOIN vm_instance vm ON vm.id = m.vm_id WHERE m.cluster_id = %d%s ORDER BY m.id"
            % (cluster_id, " AND NOT m.etcd_node" if self.etcd_column else ""))


class Nodes:
    """What a cluster's nodes answer: kubectl's view of them, the upgrade script, everything else succeeds."""

    def __init__(self, out, cloud):
        self.out = out
        self.cloud = cloud
        self.upgraded = {}          # (cluster id, node index) -> version the upgrade script installed
        self.lock = threading.Lock()

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
        return while the line is there, at most HANG_SECONDS) or 'fail TEXT' (it exits 1)."""
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
        cid, name, version = cluster
        held = self.held(name)
        lines = ["NAME STATUS ROLES AGE VERSION"]
        for i, (host, state, _) in enumerate(self.cloud.nodes(cid)):
            ready = "Ready" if state == "Running" and not held else "NotReady"
            role = "control-plane" if i == 0 else "<none>"
            lines.append("%s %s %s 5m v%s" % (host.lower(), ready, role, self.upgraded.get((cid, i), version)))
        return "\n".join(lines) + "\n"

    def run(self, ip, port, command):
        """(exit status, output) of a command on the node behind ip:port."""
        cluster = self.cloud.cluster_at(ip)
        self.log("%s:%d %s %s" % (ip, port, cluster[1] if cluster else "-", command))
        if cluster is None:
            return 1, "no cluster at %s\n" % ip
        fault = self.injected(command)
        if fault == "fail":
            return 1, "stand-in: failed as the run asked\n"
        end = time.monotonic() + HANG_SECONDS
        while fault == "hang" and time.monotonic() < end:
            time.sleep(1)
            fault = self.injected(command)
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
        if "/etc/kubernetes/" in command and " cat " in " " + command:
            private = self.cloud.nodes(cluster[0])[0][2] if self.cloud.nodes(cluster[0]) else ip
            return 0, ("apiVersion: v1\nclusters:\n- cluster:\n    server: https://%s:%d\n  name: %s\n"
                       "kind: Config\n" % (private, API_PORT, cluster[1]))
        upgrade = re.search(r"upgrade-kubernetes\S*\.sh (\S+)", command)
        if upgrade:
            self.upgraded[(cluster[0], port - SSH_PORTS[0])] = upgrade.group(1)
        return 0, ""


class Server(paramiko.ServerInterface):
    """Any user and key may log in: the management server's key is its own, generated at its start."""

    def __init__(self):
        self.commands = queue.Queue()

    def get_allowed_auths(self, username):
        return "publickey,password"

    def check_auth_publickey(self, username, key):
        return paramiko.AUTH_SUCCESSFUL

    def check_auth_password(self, username, password):
        return paramiko.AUTH_SUCCESSFUL

    def check_channel_request(self, kind, chanid):
        return paramiko.OPEN_SUCCEEDED if kind == "session" else paramiko.OPEN_FAILED_ADMINISTRATIVELY_PROHIBITED

    def check_channel_exec_request(self, channel, command):
        self.commands.put((channel, command.decode(errors="replace")))
        return True


def scp_sink(chan, nodes, where):
    """scp -t: acknowledge each file the client sends (trilead's SCPClient.put) and drop it."""
    chan.sendall(b"\0")
    f = chan.makefile("rb")
    while True:
        line = f.readline()
        if not line:
            break
        if line[:1] == b"C":
            size = int(line.split()[1])
            chan.sendall(b"\0")
            f.read(size + 1)
            nodes.log("%s scp %s (%d bytes)" % (where, line.split()[2].decode(errors="replace"), size))
        chan.sendall(b"\0")


def serve_ssh(conn, host_key, nodes):
    """One connection: each session runs one command (trilead opens one per call), until the client leaves."""
    ip, port = conn.getsockname()[:2]
    where = "%s:%d" % (ip, port)
    # No group exchange: trilead asks for it first, and a stand-in has no moduli file to answer with.
    transport = paramiko.Transport(conn, disabled_algorithms={
        "kex": ["diffie-hellman-group-exchange-sha1", "diffie-hellman-group-exchange-sha256"]})
    transport.add_server_key(host_key)
    server = Server()
    try:
        transport.start_server(server=server)
        while transport.is_active():
            try:
                chan, command = server.commands.get(timeout=60)
            except queue.Empty:
                break
            if command.startswith("scp "):
                scp_sink(chan, nodes, where)
                status, output = 0, ""
            else:
                try:
                    status, output = nodes.run(ip, port, command)
                except Exception as e:  # the node's answer failed: the command fails, the node stays
                    nodes.log("%s failed: %r" % (where, e))
                    status, output = 1, "stand-in: %s\n" % e
            if output:
                chan.sendall(output.encode())
            chan.send_exit_status(status)
            chan.shutdown_write()
            chan.close()
    except Exception as e:  # one broken session never stops the stand-in
        nodes.log("%s session failed: %r" % (where, e))
    finally:
        transport.close()


def listen_ssh(port, host_key, nodes):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(64)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve_ssh, args=(conn, host_key, nodes), daemon=True).start()


def api_server(out, nodes):
    """The API server's /version over TLS (the worker trusts any certificate)."""
    cert, key = os.path.join(out, "api.crt"), os.path.join(out, "api.key")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj",
                        "/CN=kubernetes", "-keyout", key, "-out", cert], check=True, capture_output=True, timeout=60)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            try:
                cluster = nodes.cloud.cluster_at(self.connection.getsockname()[0])
            except Exception as e:  # the database is away: the API server does not answer either
                self.send_error(503, str(e))
                return
            version = cluster[2] if cluster else "0.0.0"
            body = json.dumps({"major": version.split(".")[0], "minor": version.split(".")[1],
                               "gitVersion": "v" + version}).encode()
            self.send_response(200 if cluster else 404)
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
    nodes = Nodes(args.out, Cloud(args.socket))
    host_key = paramiko.RSAKey.generate(2048)
    for port in SSH_PORTS:
        threading.Thread(target=listen_ssh, args=(port, host_key, nodes), daemon=True).start()
    threading.Thread(target=api_server, args=(args.out, nodes), daemon=True).start()
    print("node stand-in: ssh %d-%d, api %d" % (SSH_PORTS[0], SSH_PORTS[-1], API_PORT), flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
