# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The steps of the users' reports (report_cases.CASES says what each checks), one method per fault: what the
user did, the fault where the report says it was, and the cluster's state once the fault is gone and the
scanner had its passes; each ends with Reports.record (user_reports.py)."""
from cloud import Api, Failure
from report_cases import CASES

# The host tag of the one host with room for a few nodes only.
SMALL_TAG = "cks-small"


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

    def sized_right(self, cid):
        """node_count and its nodes as CloudStack counts them match the VMs the cluster maps."""
        _, counted, mapped = self.sizes(cid)
        return counted == mapped

    def source_nat(self, cid):
        """The public IP (id) of the cluster's network's source NAT."""
        network = self.db.query("SELECT n.uuid FROM kubernetes_cluster kc JOIN networks n ON n.id = kc.network_id"
                                " WHERE kc.id = %d" % cid)[0][0]
        ips = self.api(1).call("listPublicIpAddresses", associatednetworkid=network, issourcenat="true", listall="true")
        return ips["publicipaddress"][0]["id"]

    # ---- the cases: each ends with self.record(issue, cluster, note, held): held says whether the report's
    # mechanism (CASES[issue]["mechanism"]) was seen
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
        after = self.states.state(cid)
        refused = "%s, %s" % (self.facts(cid, entry), after)
        # The admin's way out: start the VM the scale left stopped, now that the host has room again.
        stopped = self.db.query("SELECT vm.uuid FROM kubernetes_cluster_vm_map m JOIN vm_instance vm ON vm.id = m.vm_id"
                                " WHERE m.cluster_id = %d AND vm.state = 'Stopped' AND vm.removed IS NULL" % cid)
        admin = "no VM left stopped"
        if stopped and after == "Alert":
            a.job("startVirtualMachine", id=stopped[0][0])
            self.observe(cid, ("Running",), self.passes(3))
            admin = "the admin started the stopped VM: %s" % self.facts(cid)
        self.record("12699", cid, "%s; with the start refused: %s; %s" % (planned, refused, admin),
                    held=entry["outcome"] == "failed" and after == "Alert")

    @cases("12123")
    def partial_scale(self):
        """A user's scale up by two nodes where the account's VM limit leaves room for one."""
        api = self.user_api("cks-user")
        cid = self.running("r-part", api=api)
        before = len(self.vm_states(cid))
        self.api(1).call("updateResourceLimit", account="cks-user", domainid=self.root_domain, resourcetype=0,
                         max=before + 1)
        entry = self.scale(cid, 3, api=api)
        made = len(self.vm_states(cid)) - before
        self.observe(cid, ("Running",), self.passes(3))
        self.record("12123", cid, "%d VM(s) made; %s" % (made, self.facts(cid, entry)),
                    held=made == 1 and self.states.state(cid) == "Alert")

    @cases("restart")
    def restarts(self):
        """A create waiting for its nodes and a scale waiting for its new node, their server killed and
        started again, then the nodes Ready: one observation, of both clusters."""
        scaled = self.running("r-scale")
        self.hold("r-start")
        started, _ = self.create_cluster(1, "r-start")
        self.wait_vms(started, 2)
        self.wait_joined(started, 2)
        self.hold("r-scale")
        self.submit(1, "scaleKubernetesCluster", scaled, id=self.uuid(scaled), size=2)
        if not self.states.wait("r-scale Scaling", lambda: self.states.state(scaled) == "Scaling", 300):
            raise Failure("r-scale did not enter Scaling: %s" % self.states.state(scaled))
        self.wait_vms(scaled, 3)
        self.wait_joined(scaled, 3)
        self.servers.kill(1)
        self.restart(1)
        left = (self.states.state(started), self.states.state(scaled))
        self.hold("r-start", held=False)
        self.hold("r-scale", held=False)
        window = self.passes(4)
        self.states.wait("r-start and r-scale Running", lambda: self.states.state(started) == "Running"
                         and self.states.state(scaled) == "Running", window)
        self.record("restart", scaled, "killed and restarted, left in %s and %s; r-start: %s; r-scale: %s" % (
            left[0], left[1], self.facts(started), self.facts(scaled)), held=left == ("Starting", "Scaling"),
            others=(started,))

    @cases("6094")
    def start_timeout(self):
        """As reported: a create whose nodes never become ready, past the start timeout."""
        self.hold("r-slow")
        try:
            cid, entry = self.create_cluster(1, "r-slow")
            self.finish(entry, 900)
        finally:
            self.hold("r-slow", held=False)
        history = [s for _, s in self.states.seen.get(cid, [])]
        starting = [t for t, s in self.states.seen.get(cid, []) if s == "Starting"]
        ended = [t for t, s in self.states.seen.get(cid, []) if s == "Error"]
        lasted = ended[0] - starting[0] if starting and ended else None
        self.observe(cid, ("Running",), self.passes(2))
        self.record("6094", cid, "Starting for %s s (timeout %s s), then %s; %s" % (
            lasted, self.start_timeout_seconds, history[-1], self.facts(cid, entry)),
            held=lasted is not None and lasted >= self.start_timeout_seconds - 5)

    @cases("7920")
    def offering_scale(self):
        """A scale to a bigger offering whose ScaleVmCommand fails on the hypervisor: dynamic scaling is on (the
        zone's setting, the VMs marked scalable), so CloudStack sends the command for each running VM."""
        cid = self.running("r-offer")
        a = self.api(1)
        a.call("updateConfiguration", name="enable.dynamic.scale.vm", value="true")
        self.db.query("UPDATE vm_instance vm JOIN kubernetes_cluster_vm_map m ON m.vm_id = vm.id"
                      " SET vm.dynamically_scalable = 1 WHERE m.cluster_id = %d" % cid)
        bigger = a.call("createServiceOffering", name="cks-e2e-big", displaytext="cks-e2e-big", cpunumber=4,
                        cpuspeed=1000, memory=4096)["serviceoffering"]["id"]
        mock = self.simulator_fault(zoneid=self.zone, name="ScaleVmCommand")
        try:
            entry = self.finish(self.submit(1, "scaleKubernetesCluster", cid, id=self.uuid(cid),
                                            serviceofferingid=bigger), 900)
        finally:
            a.call("cleanupSimulatorMock", id=mock)
        after = self.states.state(cid)
        self.observe(cid, ("Running",), self.passes(3))
        self.record("7920", cid, "left %s; %s" % (after, self.facts(cid, entry)),
                    held=entry["outcome"] == "failed" and after != "Running")

    @cases("12565")
    def portless_firewall_rule(self):
        """A TCP firewall rule without ports on the cluster's public IP (all ports, as a user opens them), then
        a scale up and a scale down: the first re-creates the nodes' SSH rule, so the second meets the rule without
        ports first (the rules come in the order of their ids)."""
        cid = self.running("r-fw")
        a = self.api(1)
        a.job("createFirewallRule", ipaddressid=self.source_nat(cid), protocol="tcp", cidrlist="0.0.0.0/0")
        up = self.scale(cid, 2)
        entry = self.scale(cid, 1)
        after = self.states.state(cid)
        self.observe(cid, ("Running",), self.passes(3))
        self.record("12565", cid, "scale to 2: %s; left %s; %s" % (up["outcome"], after, self.facts(cid, entry)),
                    held="failed" in (up["outcome"], entry["outcome"]) and after != "Running")

    @cases("14159")
    def etcd_scale_down(self):
        """The report's steps: a cluster of one worker and three separate etcd nodes, scaled to two workers,
        then back to one."""
        cid = self.running("r-etcd", size=1, etcdnodes=3)
        up = self.scale(cid, 2)
        entry = self.scale(cid, 1)
        right = self.sized_right(cid)
        self.observe(cid, ("Running",), self.passes(3))
        self.record("14159", cid, "scale to 2: %s; %s" % (up["outcome"], self.facts(cid, entry)),
                    held=entry["outcome"] == "failed" and not right)

    @cases("10402")
    def ip_limit(self):
        """A user's create at the account's public IP limit of 0, then the delete."""
        api = self.user_api("cks-ip-user")
        self.api(1).call("updateResourceLimit", account="cks-ip-user", domainid=self.root_domain, resourcetype=1, max=0)
        try:
            cid, entry = self.create_cluster(1, "r-ip", api=api)
        except Failure as e:
            raise Failure("the create at the IP limit never made a cluster: %s" % str(e)[:300])
        self.finish(entry, 900)
        created = "%s, %s" % (self.facts(cid, entry), self.states.state(cid))
        delete = self.finish(self.submit(1, "deleteKubernetesCluster", cid, api=api, id=self.uuid(cid)), 600)
        self.observe(cid, ("Destroyed",), self.passes(2))
        self.record("10402", cid, "create: %s; delete: %s%s" % (created, delete["outcome"], ": " + (delete["error"] or "")[:160]),
                    held=entry["outcome"] == "failed" and self.states.state(cid) in CASES["10402"]["stuck_in"])

    @cases("13544")
    def hung_delete(self):
        """A delete of a cluster with the CSI driver whose control node's PV script prints a line and then never
        returns; a second delete while the first hangs. The hang is lifted only once the case is recorded."""
        cid = self.running("r-csi", enablecsi="true")
        self.inject("print-hang", "delete-pv-reclaimpolicy-delete")
        try:
            entry = self.submit(1, "deleteKubernetesCluster", cid, id=self.uuid(cid))
            self.states.wait("r-csi deleted", lambda: self.states.state(cid) == "Destroyed", 120)
            try:
                second = self.finish(self.submit(1, "deleteKubernetesCluster", cid, id=self.uuid(cid)), 120)
                second = second["outcome"] + (": " + second["error"][:160] if second["error"] else "")
            except Failure as e:  # refused when sent
                second = "refused: %s" % str(e)[:200]
            self.observe(cid, ("Destroyed",), self.passes(2))
            hung = self.job_running(entry)
            self.record("13544", cid, "%s with the node holding, the first delete's job %s; the second delete: %s" % (
                self.states.state(cid), "IN_PROGRESS" if hung else "ended", second),
                held=hung and self.states.state(cid) == "Destroying", actions=False)
        finally:
            self.inject("print-hang", "delete-pv-reclaimpolicy-delete", on=False)
        self.finish(entry, 900)
        self.observe(cid, ("Destroyed",), self.passes(2))

    @cases("error-then-start")
    def error_then_start(self):
        """A create whose VMs cannot start, then, the fault lifted, a start, then a delete."""
        a = self.api(1)
        mock = self.simulator_fault(zoneid=self.zone, name="StartCommand")
        try:
            cid, entry = self.create_cluster(1, "r-fail")
            self.finish(entry, 900)
        finally:
            a.call("cleanupSimulatorMock", id=mock)
        created = self.states.state(cid)
        start = self.user_action(cid, "startKubernetesCluster")
        self.record("error-then-start", cid, "create: %s, %s; start: %s" % (entry["outcome"], created, start["result"]),
                    held=created == "Error" and self.states.state(cid) == "Error")

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


