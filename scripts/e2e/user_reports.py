#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""make e2e-cloudstack's users' reports: CKS issues that CloudStack users filed about cluster state, each
reproduced on one management server of a build (--build unpatched: CloudStack as released; patched: with
the series, compat mode, what an operator gets by default), the fault injected where the report's cause
is: a host without room for one more node, a node command that never returns (the stand-in holds it), a
VM the simulator cannot stop, the server killed during an operation. Each case ends with the cluster's
state after a bounded window; it is stuck when it is still where no user action or scanner pass leads
out. Writes OUT/report-reports-BUILD.json and .txt (report_cases.CASES says what each case checks).
With --run marvin, the same server and zone run CloudStack's own CKS smoke test instead
(marvin_tests.py): OUT/report-marvin-BUILD.json and .txt."""
import argparse
import os
import sys
import time

from cloud import Failure
from driver import Driver
from marvin_tests import Marvin
from report_cases import CASES, Cases, applies, not_applicable

# Seconds a create waits for its nodes here (cloud.kubernetes.cluster.start.timeout; upstream 3600).
START_TIMEOUT = 240


class Reports(Driver, Cases):
    def __init__(self, args):
        super().__init__(args)
        self.report = {"build": args.build, "run": args.run, "mode": args.mode, "servers": [], "operations": [], "restarts": [],
                       "cases": {}, "notes": [], "library_loaded": False}

    def observe(self, cid, wanted, seconds):
        """Waits, bounded, for cluster cid to reach one of wanted; its state at the end."""
        self.states.wait("cluster %d in %s" % (cid, "/".join(wanted)), lambda: self.states.state(cid) in wanted, seconds)
        return self.states.state(cid)

    def passes(self, n):
        """Seconds in which the server's scanner has made n passes from now (its first comes --first-pass
        seconds after its start, then one every 30 s)."""
        first = max(0.0, self.args.first_pass - (time.time() - self.servers.started[1]))
        return first + 30 * n + 15

    def record(self, issue, cid, wanted, note, reproduced=None):
        """The case of issue, judged on cluster cid's state now: reproduced (unpatched) or still reproduced
        (patched) when the cluster is not where the user wanted it (or as the case saw the symptom); stuck
        when it is still in a state of the report's once the fault is gone."""
        state = self.states.state(cid)
        stuck = state in CASES[issue]["stuck_in"]
        self.report["cases"][issue] = {"reproduced": state not in wanted if reproduced is None else reproduced,
                                       "final_state": state, "stuck": stuck,
                                       "note": note, "cluster": cid,
                                       "history": [s for _, s in self.states.seen.get(cid, [])]}

    def failed_case(self, issue, error):
        self.report["cases"][issue] = {"reproduced": None, "final_state": None, "stuck": None,
                                       "note": "the case could not run: %s" % error}

    def run(self):
        self.configure()
        # A create that waits for nodes that never become ready fails within minutes (10402), not an hour.
        self.db.setting("cloud.kubernetes.cluster.start.timeout", str(START_TIMEOUT))
        self.start_servers(servers=(1,), library=self.args.build == "patched")
        self.admin_keys()
        self.deploy_zone()
        self.kubernetes_setup()
        if self.args.run == "marvin":
            self.marvin()
            return
        self.small_host()
        cases = (self.capacity, self.partial_scale, self.restarts, self.etcd_scale_down, self.error_destroy,
                 self.hung_delete)
        # A developer's shortcut: CKS_E2E_REPORT_CASES=capacity,hung_delete runs only those.
        only = os.environ.get("CKS_E2E_REPORT_CASES")
        for case in [c for c in cases if only is None or c.__name__ in only.split(",")]:
            if not all(applies(issue, self.args.release) for issue in case.issues):
                for issue in case.issues:
                    self.report["cases"][issue] = not_applicable(issue, self.args.release)
                continue
            try:
                case()
            except Exception as e:  # one case that cannot run is reported, the others still run
                for issue in case.issues:
                    self.failed_case(issue, ("" if isinstance(e, Failure) else type(e).__name__ + ": ") + str(e)[:600])

    def marvin(self):
        """CloudStack's CKS smoke test by Marvin on this server (its zone ready, nothing else on it)."""
        marvin = Marvin(self.args.src, self.args.out, self.args.net, self.args.db_port, self.args.python)
        marvin.prepare()
        started = time.time()
        self.report["marvin"] = marvin.run()
        self.report["marvin_seconds"] = round(time.time() - started)


def text(report):
    if report["run"] == "marvin":
        results = [r["result"] for r in report.get("marvin", {}).values()]
        lines = ["marvin (%s build): %d tests in %s s: %s" % (
            report["build"], len(results), report.get("marvin_seconds"),
            ", ".join("%d %s" % (results.count(r), r) for r in ("passed", "failed", "skipped", "not run")))]
    else:
        lines = ["reports (%s build): %d cases" % (report["build"], len(report["cases"]))]
    for issue, c in sorted(report["cases"].items()):
        lines.append("  #%s: reproduced %s, final %s, stuck %s: %s" % (issue, c["reproduced"], c["final_state"],
                                                                       c["stuck"], c["note"]))
    for name, r in report.get("marvin", {}).items():
        lines.append("  marvin %s: %s%s" % (name, r["result"], ": " + r["why"] if r["why"] else ""))
    for n in report["notes"]:
        lines.append("  note: " + n)
    if report.get("error"):
        lines.append("  error: " + report["error"])
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", choices=("unpatched", "patched"), required=True)
    p.add_argument("--run", choices=("cases", "marvin"), default="cases",
                   help="the report cases, or CloudStack's CKS smoke test by Marvin")
    p.add_argument("--mode", default="compat")
    p.add_argument("--out", required=True)
    p.add_argument("--script")
    p.add_argument("--socket")
    p.add_argument("--net", default="10.77.2")
    p.add_argument("--public", default="192.168.2")
    p.add_argument("--heartbeat-threshold-ms", type=int, default=30000)
    p.add_argument("--first-pass", type=int, default=300)
    p.add_argument("--src", required=True, help="the build's CloudStack source tree (Marvin and its test)")
    p.add_argument("--python", required=True, help="the venv's python, with Marvin's packages")
    p.add_argument("--db-port", type=int, required=True)
    p.add_argument("--release", required=True, help="the line's CloudStack version (its table)")
    args = p.parse_args()
    reports = Reports(args)
    reports.run_and_write("report-%s-%s" % ("reports" if args.run == "cases" else "marvin", args.build), text)
    ran = reports.report.get("marvin") if args.run == "marvin" else len(reports.report["cases"]) == len(CASES)
    sys.exit(1 if reports.report.get("error") or not ran else 0)


if __name__ == "__main__":
    main()
