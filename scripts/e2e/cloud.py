# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""CloudStack as the e2e scenario and the node stand-in reach it: its database through the private
MariaDB's socket, its API over HTTP (signed with keys, or unsigned on the integration port)."""
import base64
import hashlib
import hmac
import json
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


class Failure(Exception):
    pass


def now():
    return time.monotonic()


class Database:
    """CloudStack's database, read (and its settings written) through the private server's socket."""

    def __init__(self, socket):
        self.socket = socket

    def query(self, sql):
        out = subprocess.run(["mariadb", "--no-defaults", "--protocol=socket", "--socket=" + self.socket, "-uroot",
                              "-B", "-N", "cloud", "-e", sql], capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise Failure("SQL failed: %s: %s" % (sql[:80], out.stderr.strip()))
        return [line.split("\t") for line in out.stdout.splitlines()]

    def has_column(self, table, column):
        """Whether CloudStack's schema of this line has the column (some came with a later release)."""
        return bool(self.query("SELECT 1 FROM information_schema.columns WHERE table_schema = 'cloud'"
                               " AND table_name = '%s' AND column_name = '%s'" % (table, column)))

    def setting(self, name, value):
        """A global setting as updateConfiguration stores it (read at the next start where not dynamic)."""
        self.query("INSERT INTO configuration (category, instance, component, name, value) VALUES ('Advanced',"
                   " 'DEFAULT', 'management-server', '%s', '%s') ON DUPLICATE KEY UPDATE value = '%s'"
                   % (name, value, value))


class Api:
    """CloudStack's API over HTTP: unsigned on the integration port (as SYSTEM), or signed with keys."""

    def __init__(self, base, keys=None):
        self.base = base
        self.keys = keys

    def call(self, command, timeout=60, **params):
        params = {k: str(v) for k, v in params.items() if v is not None}
        params.update(command=command, response="json")
        if self.keys:
            params["apikey"] = self.keys[0]
            query = "&".join("%s=%s" % (k, urllib.parse.quote(params[k], safe="*")) for k in sorted(params))
            digest = hmac.new(self.keys[1].encode(), query.lower().encode(), hashlib.sha1).digest()
            params["signature"] = base64.b64encode(digest).decode()
        url = self.base + "?" + urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                body = json.loads(r.read().decode())
        except urllib.error.HTTPError as e:
            raise Failure("%s: HTTP %d: %s" % (command, e.code, e.read().decode()[:4000]))
        response = next(iter(body.values()))
        return response

    def job(self, command, wait=600, **params):
        """An asynchronous command: its job id, and its result once it ended (within wait seconds)."""
        job_id = self.call(command, **params)["jobid"]
        result = wait_job(lambda: self, job_id, wait)
        if result["jobstatus"] == 0:
            raise Failure("%s: job %s did not end within %d s" % (command, job_id, wait))
        if result["jobstatus"] == 2:
            raise Failure("%s failed: %s" % (command, result.get("jobresult")))
        return job_id, result.get("jobresult", {})


def wait_job(api, job_id, wait, each=None):
    """Polls queryAsyncJobResult through api() (asked again at each poll: a server may have died) every 2 s
    until the job ends or wait seconds pass, calling each() before every poll; the last result."""
    end = now() + wait
    result = {"jobstatus": 0}
    while now() < end:
        if each:
            each()
        result = api().call("queryAsyncJobResult", jobid=job_id)
        if result["jobstatus"] != 0:
            break
        time.sleep(2)
    return result


def msid_of(n):
    return int("02c5000000%02x" % n, 16)
