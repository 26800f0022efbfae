# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The two management servers of the e2e scenario: started, killed and watched through
scripts/e2e-cloudstack.sh, judged Up by their mshost row and their API."""
import os
import subprocess
import time
import urllib.error
import urllib.request

from cloud import Api, Database, Failure, msid_of, now


class Servers:
    def __init__(self, args):
        self.args = args
        self.db = Database(args.socket)
        self.started = {}

    def log_tail(self, n, lines=40):
        path = os.path.join(self.args.out, "ms%d" % n, "log", "management-server.log")
        if not os.path.exists(path):
            path = os.path.join(self.args.out, "ms%d" % n, "log", "stdout.log")
        try:
            with open(path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return "(no log at %s)" % path

    def start(self, n, wait=900, variant=None):
        """Starts server n (variant "unloadable": cks-state's library cannot load there) and waits, bounded,
        until its mshost row is Up and its API answers."""
        subprocess.run([self.args.script, "start", str(n)] + ([variant] if variant else []), check=True, timeout=60)
        self.started[n] = time.time()
        msid = msid_of(n)
        end = now() + wait
        while now() < end:
            rows = self.db.query("SELECT state, runid, version FROM mshost WHERE msid = %d AND removed IS NULL" % msid) \
                if self.schema_ready() else []
            if rows and rows[0][0] == "Up" and self.api_answers(n):
                return {"msid": msid, "runid": int(rows[0][1]), "version": rows[0][2]}
            if not self.alive(n):
                raise Failure("management server %d exited while starting:\n%s" % (n, self.log_tail(n)))
            time.sleep(3)
        raise Failure("management server %d was not Up within %d s:\n%s" % (n, wait, self.log_tail(n)))

    def schema_ready(self):
        try:
            return bool(self.db.query("SHOW TABLES LIKE 'mshost'"))
        except Failure:
            return False

    def alive(self, n):
        try:
            with open(os.path.join(self.args.out, "ms%d" % n, "pid")) as f:
                os.kill(int(f.read().strip()), 0)
            return True
        except (OSError, ValueError):
            return False

    def api_answers(self, n):
        """Both ports answer: the integration port (8096), and the users' (8080), which the server opens
        later; an unsigned call there is refused (HTTP 401), which is an answer."""
        try:
            Api("http://%s.1%d:8096/client/api" % (self.args.net, n)).call("listCapabilities", timeout=5)
            urllib.request.urlopen("http://%s.1%d:8080/client/api?command=listCapabilities" % (self.args.net, n),
                                   timeout=5).close()
            return True
        except urllib.error.HTTPError:
            return True
        except Exception:  # not listening yet
            return False

    def kill(self, n):
        subprocess.run([self.args.script, "kill", str(n)], check=True, timeout=60)

    def log_lines(self, n, text):
        """The lines of server n's log that contain text."""
        path = os.path.join(self.args.out, "ms%d" % n, "log", "management-server.log")
        try:
            with open(path, errors="replace") as f:
                return [l.strip() for l in f if text in l]
        except OSError:
            return []

    def bound_line(self, n):
        """What the server logged when the DAO bound cks-state (version, ABI, platform, profile, mode)."""
        path = os.path.join(self.args.out, "ms%d" % n, "log", "management-server.log")
        try:
            with open(path, errors="replace") as f:
                lines = [l.strip() for l in f if "Kubernetes cluster states: cks-state" in l]
            return lines[-1] if lines else None
        except OSError:
            return None
