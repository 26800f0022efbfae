# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""What every e2e run does on its management servers: CKS operations through CloudStack's API as a
user sends them, waited for (bounded) and recorded in the run's report, and the nodes held or released
on the stand-in."""
import json
import os
import time

from cloud import Api, Failure, wait_job
from cloudstack_setup import Setup
from servers import Servers
from states import StateLog, release_profile, table_rows


class Driver(Setup):
    def __init__(self, args):
        self.args = args
        self.servers = Servers(args)
        self.db = self.servers.db
        self.states = StateLog(self.db)
        # The line's own table: what its release's StateMachine2 allows.
        self.table = table_rows(release_profile(args.release))

    def api(self, n):
        return Api("http://%s.1%d:8080/client/api" % (self.args.net, n), self.keys)

    # ---- the nodes: a held cluster's nodes are NotReady on the stand-in, so its operation waits
    def hold(self, name, held=True):
        path = os.path.join(self.args.out, "standin", "held")
        names = set()
        if os.path.exists(path):
            with open(path) as f:
                names = {line.strip() for line in f if line.strip()}
        names = names | {name} if held else names - {name}
        with open(path, "w") as f:
            f.write("".join(n + "\n" for n in sorted(names)))

    # ---- operations through the API, as a user sends them
    def submit(self, n, command, cid, api=None, **params):
        """An asynchronous CKS command on server n (sent by the user of api, else the admin); its report
        entry (job, and later outcome)."""
        started = time.time()
        job = (api or self.api(n)).call(command, **params)["jobid"]
        entry = {"server": n, "command": command, "cluster": cid, "job": job, "submitted": round(started - self.states.t0, 1),
                 "outcome": "running"}
        self.report["operations"].append(entry)
        return entry

    def finish(self, entry, wait):
        """Waits (bounded) for the job of entry to end; records outcome, error and seconds."""
        asked = lambda: self.api(2 if entry["server"] == 1 and not self.servers.alive(1) else entry["server"])
        result = wait_job(asked, entry["job"], wait, self.states.poll)
        entry["outcome"] = {0: "running", 1: "succeeded", 2: "failed"}[result["jobstatus"]]
        entry["error"] = (result.get("jobresult") or {}).get("errortext")
        entry["seconds"] = round(time.time() - self.states.t0 - entry["submitted"], 1)
        return entry

    def operation(self, n, command, cid, expect, wait=900, **params):
        """A CKS operation that must succeed and leave the cluster in state expect."""
        entry = self.finish(self.submit(n, command, cid, id=self.uuid(cid), **params), wait)
        entry["state_after"] = self.states.state(cid)
        if entry["outcome"] != "succeeded" or entry["state_after"] != expect:
            raise Failure("%s of cluster %d through server %d: %s, state %s (expected %s): %s" % (
                command, cid, n, entry["outcome"], entry["state_after"], expect, entry["error"]))
        return entry

    def uuid(self, cid):
        return self.db.query("SELECT uuid FROM kubernetes_cluster WHERE id = %d" % cid)[0][0]

    def create_cluster(self, n, name, size=1, api=None, **params):
        """An asynchronous create on server n (params add to or replace the defaults); returns (cluster id,
        report entry) once it has left Created."""
        create = dict(name=name, zoneid=self.zone, size=size, kubernetesversionid=self.versions[0],
                      serviceofferingid=self.offering)
        create.update(params)
        entry = self.submit(n, "createKubernetesCluster", None, api=api, **create)
        entry["name"] = name
        query = "SELECT id, state FROM kubernetes_cluster WHERE name = '%s' AND removed IS NULL" % name
        # Starting, or past it already (a create that fails at once).
        ok = self.states.wait("cluster %s Starting" % name, lambda: any(r[1] != "Created" for r in self.db.query(query)), 600)
        rows = self.db.query(query)
        if not ok or not rows:
            result = self.api(n).call("queryAsyncJobResult", jobid=entry["job"])
            raise Failure("cluster %s never left Created: %s" % (name, json.dumps(result)[:800]))
        entry["cluster"] = int(rows[0][0])
        return entry["cluster"], entry

    def vms_running(self, cid, count):
        rows = self.db.query("SELECT vm.state FROM kubernetes_cluster_vm_map m JOIN vm_instance vm ON vm.id = m.vm_id"
                             " WHERE m.cluster_id = %d" % cid)
        return len(rows) >= count and all(r[0] == "Running" for r in rows)

    def wait_vms(self, cid, count):
        if not self.states.wait("%d VMs of cluster %d Running" % (count, cid), lambda: self.vms_running(cid, count), 600):
            raise Failure("the VMs of cluster %d did not all run within 600 s (state %s)" % (cid, self.states.state(cid)))

    def joined(self, cid):
        """The cluster's mapped VMs that joined Kubernetes (they had their version's ISO: the stand-in's OUT/joined)."""
        try:
            with open(os.path.join(self.args.out, "standin", "joined")) as f:
                joined = {int(line) for line in f if line.strip()}
        except OSError:
            joined = set()
        rows = self.db.query("SELECT vm_id FROM kubernetes_cluster_vm_map WHERE cluster_id = %d" % cid)
        return {int(r[0]) for r in rows} & joined

    def wait_joined(self, cid, count):
        """Until count of the cluster's VMs joined: a scale has made its network rules and attached the ISO, and
        waits for its new node to be Ready (the window the users' restarts hit)."""
        if not self.states.wait("%d VMs of cluster %d joined" % (count, cid), lambda: len(self.joined(cid)) >= count, 600):
            raise Failure("the VMs of cluster %d did not join within 600 s (joined: %s, state %s)" % (
                cid, sorted(self.joined(cid)), self.states.state(cid)))

    def executing_msid(self, job_uuid):
        rows = self.db.query("SELECT job_executing_msid, job_status FROM async_job WHERE uuid = '%s'" % job_uuid)
        return int(rows[0][0]), int(rows[0][1])

    def restart(self, n):
        restarted = self.servers.start(n)
        restarted["bound"] = self.servers.bound_line(n)
        self.report["restarts"].append(restarted)
        self.hosts_up()

    def hosts_up(self, seconds=300):
        """Every simulated host Up again: a killed server's direct agents go to the survivor, and some come
        back to the restarted one (its VM commands fail while they move)."""
        a = self.api(2 if self.servers.alive(2) else 1)
        up = lambda: all(h.get("state") == "Up" for h in a.call("listHosts", type="Routing").get("host", []))
        if not self.states.wait("every host Up", up, seconds):
            raise Failure("the simulated hosts were not all Up within %d s" % seconds)

    def run_and_write(self, name, text):
        """Runs, then writes OUT/NAME.json and NAME.txt (text(report)) whatever happened: a Failure is the
        report's error."""
        try:
            self.run()
        except Failure as e:
            self.report["error"] = str(e)
        finally:
            self.states.poll()
            self.report["states"] = {str(c): h for c, h in self.states.seen.items()}
            self.finish_report()
            with open(os.path.join(self.args.out, name + ".json"), "w") as f:
                json.dump(self.report, f, indent=2, sort_keys=True)
            with open(os.path.join(self.args.out, name + ".txt"), "w") as f:
                f.write(text(self.report) + "\n")
            print(text(self.report))

    def finish_report(self):
        """What a run adds to its report at its end (nothing here)."""
