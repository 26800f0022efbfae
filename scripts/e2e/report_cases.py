# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The users' reports of user_reports.py, one method per fault: what the user did, the fault where the
report says it was, and the cluster's state once the fault is gone and the scanner had its passes."""
import json
import os

from cloud import Api, Failure
from states import version_tuple

# issue -> the user's words, and the states the cluster is stuck in when the case ends there.
CASES = {
    "12699": {"report": "CKS cluster remains in Alert state if the scaling fails due to capacity issue",
              "stuck_in": ("Alert",),
              # Where CloudStack's own code no longer shows the report (read in its source, seen in the e2e).
              "fixed_in": ("4.23.0.0", "the scale worker destroys the VMs a failed scale-up made"
                                       " (KubernetesClusterScaleWorker.cleanupNewlyCreatedVms, #12386)")},
    "12123": {"report": "a partial scale-up leaves the cluster in Alert", "stuck_in": ("Alert",),
              "fixed_in": ("4.22.1.0", "the account's limits are checked before any VM is made"
                                       " (KubernetesClusterManagerImpl: \"Resource limits prevent scaling the cluster\")")},
    "14159": {"report": "scale-down with separate etcd nodes revokes the wrong SSH rule and fails: Alert with a stale"
                        " worker count", "stuck_in": ("Alert",),
              # CreateKubernetesClusterCmd's etcdnodes: since 4.21.0.
              "since": "4.21.0.0", "needs": "separate etcd nodes (etcdnodes)",
              # Masked, not fixed: the scale still fails on its network rules, and 4.23's table returns it to
              # Running (Scaling -OperationFailed-> Running) with node_count counting the removed worker.
              "fixed_in": ("4.23.0.0", "the symptom only: the scale-down still fails on its network rules, and"
                                       " 4.23's table fails a scale to Running, with node_count still counting the"
                                       " worker it removed"),
              # Left in Alert by the series too, with fewer VMs than node_count: docs/e2e-cloudstack.md says why.
              "explained": "the scale worker removed the worker, then failed on its network rules before it wrote"
                           " the size (KubernetesClusterResourceModifierActionWorker.removeSshFirewallRule revokes"
                           " the first etcd node's SSH rule); a cluster short of VMs stays in Alert"},
    "13544": {"report": "delete hangs: stuck in Destroying (an SSH exec that does not return)",
              "stuck_in": ("Destroying",),
              # CreateKubernetesClusterCmd's enablecsi: since 4.22.0.
              "since": "4.22.0.0", "needs": "the CSI driver at create (enablecsi)"},
    "10402": {"report": "after Error the cluster goes to Destroying and remains in that state",
              "stuck_in": ("Destroying", "Error")},
    "6094": {"report": "stuck in Starting (a management server restart during the create)", "stuck_in": ("Starting",)},
    "7920": {"report": "stuck in Scaling after a management server restart", "stuck_in": ("Scaling",)},
    "12565": {"report": "stuck in Scaling (the scale's job ended, the state did not)", "stuck_in": ("Scaling",)},
}


# The host tag of the one host with room for a few nodes only.
SMALL_TAG = "cks-small"


def applies(issue, release):
    """Whether the report's feature exists in this CloudStack release (an older one ignores the parameter)."""
    since = CASES[issue].get("since")
    return since is None or version_tuple(release) >= version_tuple(since)


def fixed_upstream(issue, release):
    """Why CloudStack of this release no longer shows the report, or None."""
    fixed = CASES[issue].get("fixed_in")
    return fixed[1] if fixed and version_tuple(release) >= version_tuple(fixed[0]) else None


def not_applicable(issue, release):
    """A case's record on a release without its feature: not run, and said why."""
    return {"reproduced": None, "final_state": None, "stuck": None, "applies": False,
            "note": "not run: CloudStack %s has no %s (since %s)" % (release, CASES[issue]["needs"],
                                                                     CASES[issue]["since"])}


def cases(*issues):
    def mark(method):
        method.issues = issues
        return method
    return mark


class Cases:
    # ---- the zone's small host: a CKS offering tagged to a host with room for a few nodes only
    def small_host(self):
        """A host with room for three 2 GiB nodes (and half a node spare: the cluster's virtual router may land
        there too), tagged SMALL_TAG, and the service offering self.small of that tag: a cluster of that
        offering deploys there and nowhere else."""
        a = self.api(1)
        pod = a.call("listPods", zoneid=self.zone)["pod"][0]["id"]
        cluster = a.call("listClusters", zoneid=self.zone)["cluster"][0]["id"]
        a.call("addHost", zoneid=self.zone, podid=pod, clusterid=cluster, hypervisor="Simulator", hosttags=SMALL_TAG,
               url="http://sim/c0/%s/cpucore=16&cpuspeed=4000&memory=%d" % (SMALL_TAG, 7 * 1024 ** 3),
               username="root", password="password")
        self.small = a.call("createServiceOffering", name=SMALL_TAG, displaytext=SMALL_TAG, cpunumber=2, cpuspeed=1000,
                            memory=2048, hosttags=SMALL_TAG)["serviceoffering"]["id"]
        self.hosts_up()

    # ---- what the cases read
    def vm_states(self, cid):
        rows = self.db.query("SELECT vm.state FROM kubernetes_cluster_vm_map m JOIN vm_instance vm ON vm.id = m.vm_id"
                             " WHERE m.cluster_id = %d AND vm.removed IS NULL ORDER BY m.id" % cid)
        return [r[0] for r in rows]

    def sizes(self, cid):
        """(node_count, nodes CloudStack counts, VMs mapped), as the Alert pass compares them."""
        etcd = "IFNULL(etcd_node_count, 0)" if self.db.has_column("kubernetes_cluster", "etcd_node_count") else "0"
        row = self.db.query("SELECT node_count, control_node_count + node_count + %s FROM"
                            " kubernetes_cluster WHERE id = %d" % (etcd, cid))[0]
        return int(row[0]), int(row[1]), len(self.vm_states(cid))

    def running(self, name, size=1, api=None, **params):
        """A cluster created through server 1 (by the user of api, else the admin) and Running; its id."""
        cid, entry = self.create_cluster(1, name, size=size, api=api, **params)
        self.finish(entry, 900)
        if entry["outcome"] != "succeeded" or self.states.state(cid) != "Running":
            raise Failure("cluster %s was not created Running: %s, %s" % (name, entry["error"], self.states.state(cid)))
        return cid

    def scale(self, cid, size, api=None):
        return self.finish(self.submit(1, "scaleKubernetesCluster", cid, api=api, id=self.uuid(cid), size=size), 900)

    def user_api(self, name):
        """A user account of the ROOT domain (resource limits hold for it, not for the root admin): its API."""
        a = self.api(1)
        self.root_domain = a.call("listDomains", name="ROOT")["domain"][0]["id"]
        a.call("createAccount", accounttype=0, username=name, password="cks-e2e-user", email=name + "@cks-e2e.invalid",
               firstname=name, lastname="e2e", domainid=self.root_domain)
        user = a.call("listUsers", username=name, listall="true")["user"][0]
        keys = a.call("registerUserKeys", id=user["id"])["userkeys"]
        return Api(a.base, (keys["apikey"], keys["secretkey"]))

    def facts(self, cid, entry=None):
        node_count, counted, mapped = self.sizes(cid)
        job = "" if entry is None else "%s %s%s; " % (entry["command"], entry["outcome"],
                                                      ": " + entry["error"][:160] if entry.get("error") else "")
        return "%snode_count %d (CloudStack counts %d nodes), VMs %s" % (job, node_count, counted, self.vm_states(cid))

    # ---- the cases
    @cases("12699")
    def capacity(self):
        """A scale up by one node whose host then has no room for it. A host too small is refused before
        anything changes (CKS plans the new VMs first: the cluster stays Running, the note says so); the
        report's host ran out between that plan and the VM's start, which the simulator plays by failing the
        start on the cluster's only host (StartCommand), as a hypervisor out of memory answers."""
        cid = self.running("r-cap", serviceofferingid=self.small)
        too_big = self.scale(cid, 3)
        planned = "a scale to more than the host holds: %s%s" % (too_big["outcome"], ": " + (too_big["error"] or "")[:120])
        a = self.api(1)
        # Zone-wide (a host-scoped mock never matches: the simulator looks mocks up by its own host ids); the
        # only start in the window is the new VM's, which can only go to the cluster's host.
        mock = self.simulator_fault(zoneid=self.zone, name="StartCommand")
        try:
            entry = self.scale(cid, 2)
        finally:
            a.call("cleanupSimulatorMock", id=mock)
        self.observe(cid, ("Running",), self.passes(3))
        refused = "%s, %s" % (self.facts(cid, entry), self.states.state(cid))
        # The admin's way out: start the VM the scale left stopped, now that the host has room again.
        stopped = self.db.query("SELECT vm.uuid FROM kubernetes_cluster_vm_map m JOIN vm_instance vm ON vm.id = m.vm_id"
                                " WHERE m.cluster_id = %d AND vm.state = 'Stopped' AND vm.removed IS NULL" % cid)
        admin = "no VM left stopped"
        if stopped and self.states.state(cid) == "Alert":
            a.job("startVirtualMachine", id=stopped[0][0])
            self.observe(cid, ("Running",), self.passes(3))
            admin = "the admin started the stopped VM: %s" % self.facts(cid)
        self.record("12699", cid, ("Running",), "%s; with the start refused: %s; %s" % (planned, refused, admin))

    @cases("12123")
    def partial_scale(self):
        """A user's scale up by two nodes where the account's VM limit leaves room for one."""
        api = self.user_api("cks-user")
        cid = self.running("r-part", api=api)
        self.api(1).call("updateResourceLimit", account="cks-user", domainid=self.root_domain, resourcetype=0,
                         max=len(self.vm_states(cid)) + 1)
        entry = self.scale(cid, 3, api=api)
        self.observe(cid, ("Running",), self.passes(3))
        self.record("12123", cid, ("Running",), self.facts(cid, entry))

    @cases("6094", "7920", "12565")
    def restarts(self):
        """A create waiting for its nodes and a scale waiting for its new node, their server killed and
        started again (a restart, as the users' servers were), then the nodes Ready."""
        scaled = self.running("r-scale")
        self.hold("r-start")
        started, _ = self.create_cluster(1, "r-start")
        self.wait_vms(started, 2)
        self.hold("r-scale")
        self.submit(1, "scaleKubernetesCluster", scaled, id=self.uuid(scaled), size=2)
        if not self.states.wait("r-scale Scaling", lambda: self.states.state(scaled) == "Scaling", 300):
            raise Failure("r-scale did not enter Scaling: %s" % self.states.state(scaled))
        self.wait_vms(scaled, 3)
        self.servers.kill(1)
        self.restart(1)
        self.hold("r-start", held=False)
        self.hold("r-scale", held=False)
        window = self.passes(4)
        self.states.wait("r-start and r-scale Running", lambda: self.states.state(started) == "Running"
                         and self.states.state(scaled) == "Running", window)
        self.record("6094", started, ("Running",), "killed and restarted in Starting; " + self.facts(started))
        for issue in ("7920", "12565"):
            self.record(issue, scaled, ("Running",), "killed and restarted in Scaling after the new VM; "
                        + self.facts(scaled))

    @cases("14159")
    def etcd_scale_down(self):
        """The report's steps: a cluster of one worker and three separate etcd nodes, scaled to two workers,
        then back to one."""
        cid = self.running("r-etcd", size=1, etcdnodes=3)
        up = self.scale(cid, 2)
        entry = self.scale(cid, 1)
        self.observe(cid, ("Running",), self.passes(3))
        self.record("14159", cid, ("Running",), "scale to 2: %s; %s" % (up["outcome"], self.facts(cid, entry)))

    @cases("10402")
    def error_destroy(self):
        """A create whose nodes never become ready (held on the stand-in past cloud.kubernetes.cluster.start.timeout:
        Error, its VMs up), then a delete while the simulator cannot stop a VM, then, the fault gone, the delete
        again."""
        self.hold("r-err")
        cid, entry = self.create_cluster(1, "r-err")
        self.finish(entry, 900)
        self.hold("r-err", held=False)
        created = self.facts(cid, entry)
        if self.states.state(cid) != "Error":
            raise Failure("r-err did not end its create in Error: %s" % created)
        a = self.api(1)
        mock = self.simulator_fault(zoneid=self.zone, name="StopCommand")
        try:
            first = self.finish(self.submit(1, "deleteKubernetesCluster", cid, id=self.uuid(cid)), 600)
        finally:
            a.call("cleanupSimulatorMock", id=mock)
        after_first = self.states.state(cid)
        try:
            again = self.finish(self.submit(1, "deleteKubernetesCluster", cid, id=self.uuid(cid)), 600)
            again = again["outcome"] + (": " + again["error"][:160] if again["error"] else "")
        except Failure as e:  # refused when sent
            again = "refused: %s" % str(e)[:200]
        self.observe(cid, ("Destroyed",), self.passes(2))
        self.record("10402", cid, ("Destroyed",), "create: %s; delete with a VM that cannot stop: %s -> %s: %s;"
                    " delete again: %s" % (created, first["outcome"], after_first, (first["error"] or "")[:160], again))

    @cases("13544")
    def hung_delete(self):
        """A delete of a cluster with the CSI driver, whose control node never answers the PV script's SSH
        exec (the stand-in holds it for as long as the run says); then the node answers again."""
        cid = self.running("r-csi", enablecsi="true")
        self.inject("hang", "delete-pv-reclaimpolicy-delete")
        try:
            entry = self.submit(1, "deleteKubernetesCluster", cid, id=self.uuid(cid))
            gone = self.states.wait("r-csi deleted", lambda: self.states.state(cid) == "Destroyed", 180)
            during = "%s after 180 s of a node that does not answer, its job %s" % (
                self.states.state(cid), "IN_PROGRESS" if self.job_running(entry) else "ended")
        finally:
            self.inject("hang", "delete-pv-reclaimpolicy-delete", on=False)
        self.finish(entry, 900)
        self.observe(cid, ("Destroyed",), self.passes(2))
        self.record("13544", cid, ("Destroyed",), "%s; once it answers: delete %s, %s" % (
            during, entry["outcome"], self.states.state(cid)), reproduced=not gone)

    def simulator_fault(self, **where):
        """The simulator fails the agent command named in where (name=) on the hosts where says, until
        cleanupSimulatorMock with the id this returns (configureSimulator)."""
        answer = self.api(1).call("configureSimulator", value="result:fail", **where)
        # The mock comes under a key of its own ({"null": {"id": ...}}: MockResponse has no object name).
        mock = answer if "id" in answer else next(iter(answer.values()))
        return mock["id"]

    def job_running(self, entry):
        return int(self.db.query("SELECT job_status FROM async_job WHERE uuid = '%s'" % entry["job"])[0][0]) == 0

    def inject(self, kind, text, on=True):
        """A fault the node stand-in plays on commands that contain text (node_standin.Nodes.injected)."""
        path = self.args.out + "/standin/inject"
        try:
            with open(path) as f:
                lines = {line.strip() for line in f if line.strip()}
        except OSError:
            lines = set()
        line = "%s %s" % (kind, text)
        lines = lines | {line} if on else lines - {line}
        with open(path, "w") as f:
            f.write("".join(l + "\n" for l in sorted(lines)))


# ---- the merged report (cloudstack_e2e.py --merge): each case on both builds
def merged_reports(out, release):
    """{issue: {report, applies, unpatched, patched}} from OUT/report-reports-BUILD.json (a build that did not
    run: null); applies is false where the release lacks the report's feature."""
    builds = {}
    for build in ("unpatched", "patched"):
        path = os.path.join(out, "report-reports-%s.json" % build)
        if os.path.exists(path):
            with open(path) as f:
                builds[build] = json.load(f)["cases"]
    return {issue: dict({"report": case["report"], "applies": applies(issue, release),
                         "fixed_upstream": fixed_upstream(issue, release)},
                        **{b: builds.get(b, {}).get(issue) for b in ("unpatched", "patched")})
            for issue, case in CASES.items()}


def reports_failed(reports):
    """Of the reports the release has the feature of: one that did not run, one stuck patched and not explained,
    or, of those CloudStack of the release has not fixed, more than two not reproduced unpatched."""
    wanted = {i: r for i, r in reports.items() if r["applies"]}
    ran = {i: r for i, r in wanted.items() if r["unpatched"] and r["patched"]
           and r["unpatched"]["reproduced"] is not None and r["patched"]["reproduced"] is not None}
    open_upstream = [r for r in ran.values() if not r["fixed_upstream"]]
    unfixed = sum(1 for r in wanted.values() if not r["fixed_upstream"])
    return (len(ran) < len(wanted) or sum(1 for r in open_upstream if r["unpatched"]["reproduced"]) < unfixed - 2
            or any(r["patched"]["stuck"] and not CASES[i].get("explained") for i, r in ran.items()))


def reports_table(reports):
    cell = lambda c: "-" if not c else "%s%s %s" % ("reproduced" if c["reproduced"] else "not reproduced",
                                                     ", STUCK" if c["stuck"] else "", c["final_state"])
    lines = ["%-7s | %-36s | %s" % ("report", "unpatched", "patched")]
    for issue, r in reports.items():
        if not r["applies"]:
            lines.append("#%-6s | not on this release: %s (since %s)" % (issue, CASES[issue]["needs"], CASES[issue]["since"]))
            continue
        lines.append("#%-6s | %-36s | %s" % (issue, cell(r["unpatched"]), cell(r["patched"])))
        if r["fixed_upstream"]:
            lines.append("         CloudStack of this release no longer shows it: %s" % r["fixed_upstream"])
        if r["patched"] and r["patched"]["stuck"]:
            lines.append("         why it stays with the series: %s" % CASES[issue].get("explained", "not explained"))
    return "\n".join(lines)
