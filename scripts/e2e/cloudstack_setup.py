# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The e2e scenario's set-up, as an operator does it: settings before the first start, the two servers,
the admin's API keys, a simulator zone and what the Kubernetes Service needs, through CloudStack's own API."""
import os
import subprocess

from cloud import Api, Failure
from states import ROOT, version_tuple


class Setup:
    def configure(self):
        s = self.db.setting
        s("cloud.kubernetes.cluster.state.mode", self.args.mode)
        s("cluster.heartbeat.threshold", str(self.args.heartbeat_threshold_ms))
        s("endpoint.url", "http://%s.11:8080/client/api" % self.args.net)
        s("validate.url.is.resolvable.before.registering.template", "false")
        self.seed_ssh_keys()
        if self.args.mode == "fenced":
            props = os.path.join(self.args.out, "ms1", "conf", "db.properties")
            subprocess.run([self.args.script, "conf", "1"], check=True, timeout=60)
            out = subprocess.run(["java", "-jar", os.path.join(ROOT, "java", "target", "cks-state-cli.jar"), "schema",
                                  "--db-properties", props, "--migrate", "fenced", "--apply"],
                                 capture_output=True, text=True, timeout=300)
            self.report["notes"].append("cks-state schema --migrate fenced --apply: exit %d: %s"
                                        % (out.returncode, (out.stdout + out.stderr).strip()[-300:]))
            if out.returncode != 0:
                raise Failure("the fenced migration failed: " + out.stdout + out.stderr)

    def seed_ssh_keys(self):
        """The management server's SSH key pair, stored before its first start as it stores its own
        (ConfigurationServerImpl.updateKeyPairs), but RSA: the key it generates is ECDSA, which the
        trilead-ssh2 on Maven Central (build222, installed for the jenkins fork) cannot read; the jenkins
        fork that CloudStack's packages ship can. Throwaway keys of a throwaway database, never printed."""
        folder = os.path.join(self.args.out, "ssh")
        os.makedirs(folder, exist_ok=True)
        key = os.path.join(folder, "id_rsa")
        if not os.path.exists(key):
            subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-m", "PEM", "-N", "", "-C", "cks-e2e",
                            "-f", key], check=True, capture_output=True, timeout=60)
        for name, path in (("ssh.privatekey", key), ("ssh.publickey", key + ".pub")):
            with open(path) as f:
                value = f.read().replace("\\", "\\\\").replace("'", "''")
            self.db.query("INSERT INTO configuration (category, instance, component, name, value) VALUES ('Hidden',"
                          " 'DEFAULT', 'management-server', '%s', '%s') ON DUPLICATE KEY UPDATE value = VALUES(value)"
                          % (name, value))

    def start_servers(self, servers=(1, 2), library=True):
        """Starts the servers; with library, each must log cks-state's binding in the run's mode (a patched
        build), else none may (the unpatched build has no cks-state)."""
        for n in servers:
            info = self.servers.start(n)
            info["bound"] = self.servers.bound_line(n)
            info["server"] = n
            self.report["servers"].append(info)
        bound = [s["bound"] for s in self.report["servers"]]
        self.report["library_loaded"] = all(b and ("mode " + self.args.mode) in b for b in bound)
        if library and not self.report["library_loaded"]:
            raise Failure("a server did not log cks-state's binding in mode %s: %s" % (self.args.mode, bound))
        if not library and any(bound):
            raise Failure("the unpatched build logged cks-state's binding: %s" % bound)

    def admin_keys(self):
        system = Api("http://%s.11:8096/client/api" % self.args.net)
        user = system.call("listUsers", username="admin", listall="true")["user"][0]
        if user.get("state") != "enabled":
            system.call("enableUser", id=user["id"])
        keys = system.call("registerUserKeys", id=user["id"])["userkeys"]
        self.keys = (keys["apikey"], keys["secretkey"])

    def deploy_zone(self):
        """The simulator zone of setup/dev/advanced.cfg (one cluster, four hosts), as deployDataCenter.py
        deploys it, by CloudStack's own API calls."""
        a = self.api(1)
        zone = a.call("createZone", name="e2e-simulator", networktype="Advanced", dns1="10.147.28.6",
                      internaldns1="10.147.28.6", guestcidraddress="10.1.1.0/24")["zone"]
        self.zone = zone["id"]
        _, pn = a.job("createPhysicalNetwork", zoneid=self.zone, name="e2e-pnet", isolationmethods="VLAN",
                      vlan="100-200", broadcastdomainrange="Zone")
        pnid = pn["physicalnetwork"]["id"]
        for t in ("Guest", "Management", "Public"):
            a.job("addTrafficType", physicalnetworkid=pnid, traffictype=t)
        # advanced.cfg's providers: the virtual router, for isolated networks and for VPCs.
        for provider in ("VirtualRouter", "VpcVirtualRouter"):
            nsp = a.call("listNetworkServiceProviders", name=provider, physicalnetworkid=pnid)["networkserviceprovider"][0]
            element = a.call("listVirtualRouterElements", nspid=nsp["id"])["virtualrouterelement"][0]
            a.job("configureVirtualRouterElement", id=element["id"], enabled="true")
            a.job("updateNetworkServiceProvider", id=nsp["id"], state="Enabled")
        a.job("updatePhysicalNetwork", id=pnid, state="Enabled")
        pod = a.call("createPod", zoneid=self.zone, name="POD0", gateway="172.16.15.1", netmask="255.255.255.0",
                     startip="172.16.15.2", endip="172.16.15.200")["pod"]
        a.call("createVlanIpRange", zoneid=self.zone, vlan="50", gateway=self.args.public + ".1",
               netmask="255.255.255.0", startip=self.args.public + ".2", endip=self.args.public + ".200",
               forvirtualnetwork="true")
        cluster = a.call("addCluster", zoneid=self.zone, podid=pod["id"], clustername="C0", hypervisor="Simulator",
                         clustertype="CloudManaged")["cluster"][0]
        # Hosts larger than the simulator's default (4 cores, 8 GiB; SimulatorDiscoverer reads the URL's last
        # segment): three clusters, their scale, a user VM and the system VMs deploy at once without
        # "Host does not have enough capacity".
        for h in ("h0", "h1", "h2", "h3"):
            a.call("addHost", zoneid=self.zone, podid=pod["id"], clusterid=cluster["id"], hypervisor="Simulator",
                   url="http://sim/c0/%s/cpucore=16&cpuspeed=4000&memory=%d" % (h, 64 * 1024 ** 3),
                   username="root", password="password")
        a.call("createStoragePool", zoneid=self.zone, podid=pod["id"], clusterid=cluster["id"], name="PS0",
               url="nfs://10.147.28.6:/export/home/sandbox/primary0")
        a.call("addImageStore", provider="NFS", zoneid=self.zone, url="nfs://10.147.28.6:/export/home/sandbox/secondary")
        a.call("updateZone", id=self.zone, allocationstate="Enabled")

    def kubernetes_setup(self):
        """What a cluster needs: a service offering, a Kubernetes version (its ISO Ready in the zone), and
        the simulator's SYSTEM template Ready with its size (the secondary storage VM reports it; a
        node VM cannot be reserved before: VMTemplateVO.getSize() is null)."""
        a = self.api(1)
        ok = self.states.wait("the SYSTEM template Ready", lambda: any(
            t.get("templatetype") == "SYSTEM" and t.get("isready") and t.get("size")
            for t in a.call("listTemplates", templatefilter="all", hypervisor="Simulator", zoneid=self.zone)
            .get("template", [])), 900)
        if not ok:
            raise Failure("the simulator's SYSTEM template was not Ready with a size within 900 s")
        self.offering = a.call("createServiceOffering", name="cks-e2e", displaytext="cks-e2e", cpunumber=2,
                               cpuspeed=1000, memory=2048)["serviceoffering"]["id"]
        # A template marked for CKS, for a VM of the user's own added to a cluster as a node (the simulator's
        # image store marks it downloaded, as it does the versions' ISOs). Nodes of one's own came with 4.21.
        self.node_template = None
        if not self.has_node_apis():
            return self.add_versions(a)
        os_type = a.call("listOsTypes", description="CentOS 5.6 (64-bit)")["ostype"][0]["id"]
        self.node_template = a.call("registerTemplate", name="e2e-node", displaytext="e2e-node", zoneid=self.zone,
                                    url="http://download.cks-e2e.invalid/e2e-node.vhd", format="VHD",
                                    hypervisor="Simulator", ostypeid=os_type, forcks="true",
                                    ispublic="true")["template"][0]["id"]
        self.add_versions(a)

    def has_node_apis(self):
        """addNodesToKubernetesCluster, removeNodesFromKubernetesCluster and templates for CKS: 4.21 and later."""
        return version_tuple(self.args.release) >= (4, 21)

    def add_versions(self, a):
        # Two versions: the clusters are created with the first and upgraded to the second.
        self.versions = []
        for semantic in ("1.28.4", "1.29.1"):
            version = a.call("addKubernetesSupportedVersion", name="v" + semantic, semanticversion=semantic,
                             zoneid=self.zone, url="http://download.cks-e2e.invalid/setup-v%s.iso" % semantic,
                             mincpunumber=2, minmemory=2048)["kubernetessupportedversion"]
            self.versions.append(version["id"])
        ok = self.states.wait("the versions' ISOs Ready", lambda: all(
            a.call("listKubernetesSupportedVersions", id=v)["kubernetessupportedversion"][0].get("isostate") == "Ready"
            for v in self.versions), 600)
        if not ok:
            raise Failure("the Kubernetes versions' ISOs did not become Ready within 600 s")
