# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The node stand-in's SSH server (node_standin.py): a connection is served only where a rule forwards its
public IP and port to a VM (Nodes.ssh_vm); each session runs one command on that VM (Nodes.run)."""
import queue
import socket
import threading

import paramiko


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
    vm = nodes.ssh_vm(ip, port)
    if vm is None:
        # No rule forwards this port: the virtual router drops it, and ssh never sees a banner.
        nodes.log("%s refused: no active port-forwarding and firewall rule to a VM's port 22" % where)
        conn.close()
        return
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
                    status, output = nodes.run(ip, port, vm, command, early=lambda text: chan.sendall(text.encode()))
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
