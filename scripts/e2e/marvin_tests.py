# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""CloudStack's own CKS smoke test (test/integration/smoke/test_kubernetes_clusters.py), unchanged, run by
Marvin from the same source tree (tools/marvin) against a run's management server: its API package
generated as tools/marvin/pom.xml does, from the API spec (ApiXmlDocWriter over the build's jars, as
tools/apidoc/build-apidoc.sh runs it, then codegenerator.py -s; its -e path, from a server's listApis,
fails on this source: "{} has no property name"), a config that names
the server and its database and no zone (the run deployed it), nose with Marvin's plugin, the results
read from nose's xunit file. Marvin's hypervisor is its own default, XenServer (marvinInit.py,
__setHypervisorAndZoneInfo): the test skips every hypervisor but KVM, VMware and XenServer
(setUpClass), and with Simulator, CloudStack's CI choice, nothing past that gate would run."""
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

TEST = "test/integration/smoke/test_kubernetes_clusters.py"
HYPERVISOR = "XenServer"
# Seconds the whole Marvin run may take: its own waits are long (an ISO 30 x 60 s, the autoscaler 5 x 60 s).
TIMEOUT = 2400
# The first step of each test the simulator zone and the node stand-in cannot give, as the runs showed;
# the other tests reach none.
SIMULATOR_LIMITS = {
    "test_04_autoscale_kubernetes_cluster":
        "the autoscaler's pod, listed through the cluster's Kubernetes API with the kubeconfig CloudStack returns"
        " (waitForAutoscalerPodInRunningState): the stand-in answers the nodes' SSH and runs no API server",
    "test_13_test_add_external_nodes_to_cluster":
        "a VMware zone (skipTestIf hypervisorIsNotVmware); past it, a VM of the CKS Ubuntu template added as a node"
        " over SSH with the management server's key (getMgmtSshKey: SSH to the server's host)",
}


def test_names(src):
    with open(os.path.join(src, TEST)) as f:
        return re.findall(r"^    def (test_\w+)\(", f.read(), re.M)


def one_line(text, last=False):
    """The first (or last) non-blank line of text, cut to 240 characters."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return (lines[-1 if last else 0] if lines else "")[:240]


def results(xunit, names):
    """{test: {result: passed|failed|skipped|not run, why}} from nose's xunit file; a class-level error
    (setUpClass) is the why of every test it kept from running."""
    found, class_error = {}, None
    for case in ElementTree.parse(xunit).getroot().iter("testcase"):
        name = case.get("name")
        problem = next((case.find(t) for t in ("failure", "error", "skipped") if case.find(t) is not None), None)
        if problem is None:
            result = {"result": "passed", "why": None}
        else:
            why = one_line(problem.get("message") or problem.text)
            result = {"result": "skipped" if problem.tag == "skipped" else "failed", "why": why}
        # A test nose lists twice (passed, then an error its teardown or a plugin raised) failed.
        if name in names and found.get(name, {}).get("result") != "failed":
            found[name] = result
        elif problem is not None and problem.tag != "skipped":
            class_error = "%s: %s" % (name, result["why"])
    return {n: found.get(n, {"result": "not run", "why": class_error or "not in nose's results"}) for n in names}


class Marvin:
    def __init__(self, src, out, net, db_port, python):
        self.src, self.dir, self.net, self.db_port, self.python = src, os.path.join(out, "marvin"), net, db_port, python

    def prepare(self):
        """Marvin's package copied out of the source (its API package is generated into it), and its config."""
        shutil.rmtree(self.dir, ignore_errors=True)
        package = os.path.join(self.dir, "lib", "marvin")
        shutil.copytree(os.path.join(self.src, "tools", "marvin", "marvin"), package)
        log = os.path.join(self.dir, "codegenerator.log")
        client = os.path.join(self.src, "client", "target")
        jar = next(n for n in sorted(os.listdir(client)) if n.startswith("cloud-client-ui-") and n.endswith(".jar"))
        with open(log, "w") as f:
            done = subprocess.run(["java", "-cp", os.path.join(client, jar) + os.pathsep + os.path.join(client, "lib", "*"),
                                   "com.cloud.api.doc.ApiXmlDocWriter", "-d", self.dir],
                                  stdout=f, stderr=subprocess.STDOUT, timeout=300).returncode == 0
            done = done and subprocess.run([self.python, os.path.join(package, "codegenerator.py"), "-s",
                                            os.path.join(self.dir, "commands.xml"), "-o", package],
                                           stdout=f, stderr=subprocess.STDOUT, timeout=300).returncode == 0
        if not done or not os.path.exists(os.path.join(package, "cloudstackAPI", "createKubernetesCluster.py")):
            with open(log) as f:
                raise RuntimeError("Marvin's API package was not generated: %s (log: %s)" % (one_line(f.read(), last=True), log))
        # CloudStack's developer database user (create-database.sql), on the run's throwaway MariaDB.
        config = {"mgtSvr": [{"mgtSvrIp": self.net + ".11", "port": 8096, "user": "root", "passwd": "password",
                              "useHttps": "False", "certCAPath": "NA", "certPath": "NA"}],
                  "dbSvr": {"dbSvr": "127.0.0.1", "port": self.db_port, "user": "cloud", "passwd": "cloud", "db": "cloud"},
                  "logger": {"LogFolderPath": os.path.join(self.dir, "logs")}}
        os.makedirs(config["logger"]["LogFolderPath"])
        with open(os.path.join(self.dir, "config.json"), "w") as f:
            json.dump(config, f, indent=2)

    def run(self):
        """{test: result} of one Marvin run, bounded by TIMEOUT."""
        names = test_names(self.src)
        xunit = os.path.join(self.dir, "xunit.xml")
        env = dict(os.environ, PYTHONPATH=os.path.join(self.dir, "lib"),
                   PATH=os.path.dirname(self.python) + os.pathsep + os.environ["PATH"])
        argv = [self.python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "marvin_nose.py"), "-v",
                "--with-marvin", "--marvin-config=" + os.path.join(self.dir, "config.json"),
                "--hypervisor=" + HYPERVISOR, "--with-xunit", "--xunit-file=" + xunit, os.path.join(self.src, TEST)]
        with open(os.path.join(self.dir, "nose.log"), "w") as log:
            try:
                subprocess.run(argv, cwd=self.dir, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                return {n: {"result": "not run", "why": "Marvin did not end within %d s (log: %s)" % (TIMEOUT, log.name)}
                        for n in names}
        if not os.path.exists(xunit):
            return {n: {"result": "not run", "why": "nose wrote no results (log: %s)" % log.name} for n in names}
        return results(xunit, names)


def merged_marvin(out):
    """{test: {unpatched, patched, simulator_limit}} from OUT/report-marvin-BUILD.json (a build that did
    not run Marvin: null)."""
    builds = {}
    for build in ("unpatched", "patched"):
        path = os.path.join(out, "report-marvin-%s.json" % build)
        if os.path.exists(path):
            with open(path) as f:
                builds[build] = json.load(f).get("marvin") or {}
    names = list(dict.fromkeys(n for b in builds.values() for n in b))
    return {n: {"unpatched": builds.get("unpatched", {}).get(n), "patched": builds.get("patched", {}).get(n),
                "simulator_limit": SIMULATOR_LIMITS.get(n)} for n in names}


def marvin_failed(marvin):
    """No test ran, a build without results, or a test that passes unpatched and not patched."""
    return (not marvin or any(not r["unpatched"] or not r["patched"] for r in marvin.values())
            or any(r["unpatched"]["result"] == "passed" and r["patched"]["result"] != "passed" for r in marvin.values()))


def marvin_table(marvin):
    cell = lambda r: "-" if not r else (r["result"] + (": " + r["why"] if r["why"] else ""))[:44]
    lines = ["%-62s | %-44s | %s" % ("Marvin: " + TEST.rsplit("/", 1)[1], "unpatched", "patched")]
    for name, r in marvin.items():
        lines.append("%-62s | %-44s | %s" % (name, cell(r["unpatched"]), cell(r["patched"])))
        if r["simulator_limit"]:
            lines.append("    first step the simulator cannot give: %s" % r["simulator_limit"])
    return "\n".join(lines)


def self_check():
    """make scripts-test: nose's xunit read as the report needs it, and the merged report's rule."""
    import tempfile
    xml = ('<testsuite><testcase classname="t.T" name="test_01_a" time="1"/>'
           '<testcase classname="t.T" name="test_03_c"/><testcase classname="t.T" name="test_02_b"><failure type="AssertionError" message="state Alert&#10;'
           'more"/></testcase><testcase classname="t.T" name="test_03_c"><error type="E" message="boom"/>'
           '</testcase><testcase classname="t.T" name="test_04_d"><skipped type="SkipTest" message="vmware"/>'
           '</testcase><testcase classname="t.T" name="test_03_c"/></testsuite>')
    with tempfile.NamedTemporaryFile("w", suffix=".xml") as f:
        f.write(xml)
        f.flush()
        got = results(f.name, ["test_01_a", "test_02_b", "test_03_c", "test_04_d", "test_05_e"])
    assert [r["result"] for r in got.values()] == ["passed", "failed", "failed", "skipped", "not run"], got
    assert got["test_02_b"]["why"] == "state Alert", got
    passed, failed = {"result": "passed", "why": None}, {"result": "failed", "why": "x"}
    assert not marvin_failed({"t": {"unpatched": failed, "patched": passed}})
    assert marvin_failed({"t": {"unpatched": passed, "patched": failed}})
    assert marvin_failed({"t": {"unpatched": passed, "patched": None}}) and marvin_failed({})
    print("marvin_tests.py: xunit results and the merged report's rule checked")


if __name__ == "__main__":
    self_check()
