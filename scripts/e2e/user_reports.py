#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""make e2e-cloudstack's users' reports: CKS issues that CloudStack users filed about cluster state, each
reproduced on one management server of a build (--build unpatched: CloudStack as released; patched: with
the series, compat mode, what an operator gets by default), the fault injected where the report's cause
is: a host without room for one more node, a node command that never returns (the stand-in holds it), a
VM the simulator cannot stop, the server killed during an operation. Each case ends with the cluster's
state after a bounded window, judged against the state the series must reach (report_cases.CASES); where
the cluster is not there, a user's stop then start, then a delete are tried, and it is stuck when none leads
out. Two runs share a build's cases (--part 1 and 2): OUT/report-reports-BUILD.json and
report-reports2-BUILD.json, and .txt (report_cases.CASES says what each case checks).
With --run marvin, the same server and zone run CloudStack's own CKS smoke test instead
(marvin_tests.py): OUT/report-marvin-BUILD.json and .txt."""
import argparse
import os
import subprocess
import sys
import time

from cloud import Failure
from driver import Driver
from marvin_tests import Marvin
from report_cases import CASES, applies, not_applicable
from report_steps import Cases
from states import illegal_changes

# Seconds a create waits for its nodes here (cloud.kubernetes.cluster.start.timeout; upstream 3600).
START_TIMEOUT = 240


class Reports(Driver, Cases):
    def __init__(self, args):
        super().__init__(args)
        self.start_timeout_seconds = START_TIMEOUT
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

    def record(self, issue, cid, note, held, others=(), actions=True):
        """The case of issue on cluster cid (and others, the same case's other clusters), once its fault is gone
        and the scanner had its passes: its final state against the state the series must reach
        (CASES[issue]["expected"]); whether the report's mechanism was seen (held: reproduced); where the
        cluster is not at that state, a user's stop then start, then a delete (user_actions), and stuck when
        none of them took it there or out; and its state changes against the line's table."""
        expected = CASES[issue]["expected"][0]
        state = self.states.state(cid)
        finals = {str(c): self.states.state(c) for c in (cid,) + tuple(others)}
        done, way_out = [], None
        if actions:
            for c in (cid,) + tuple(others):
                tried, out = self.user_actions(c, expected)
                done += tried
                way_out = way_out or out
        missed = any(s != expected for s in finals.values())
        clusters = (cid,) + tuple(others)
        self.report["cases"][issue] = {
            "fault": CASES[issue]["fault"],
            "mechanism": {"asserted": CASES[issue]["mechanism"], "held": bool(held), "seen": note},
            "expected": expected, "final_state": state, "final_states": finals,
            "reproduced": bool(held), "user_actions": done, "way_out": way_out,
            "stuck": missed and way_out is None and any(s in CASES[issue]["stuck_in"] for s in finals.values()),
            "note": note, "cluster": cid,
            "history": {str(c): [s for _, s in self.states.seen.get(c, [])] for c in clusters},
            "illegal": illegal_changes({c: self.states.seen.get(c, []) for c in clusters}, self.table)}

    def user_actions(self, cid, expected):
        """A user's way out of a cluster not at expected: a stop, then a start, then, if it is still not there,
        a delete. The actions tried, and which of them got it out ("stop and start", "delete" or None)."""
        if self.states.state(cid) in (expected, "Destroyed"):
            return [], None
        tried = [self.user_action(cid, "stopKubernetesCluster"), self.user_action(cid, "startKubernetesCluster")]
        if self.states.state(cid) == expected or (expected != "Running" and self.states.state(cid) == "Running"):
            return tried, "stop and start"
        tried.append(self.user_action(cid, "deleteKubernetesCluster"))
        return tried, "delete" if self.states.state(cid) == "Destroyed" else None

    def user_action(self, cid, command, wait=600):
        """One of a user's commands on cluster cid: what it answered and the state after it."""
        try:
            entry = self.finish(self.submit(1, command, cid, id=self.uuid(cid)), wait)
            result = entry["outcome"] + (": " + entry["error"][:200] if entry.get("error") else "")
        except Failure as e:  # refused when sent
            result = "refused: %s" % str(e)[:240]
        self.observe(cid, ("Running", "Stopped", "Destroyed"), 60)
        return {"action": command, "result": result, "state": self.states.state(cid)}

    def failed_case(self, issue, error):
        self.report["cases"][issue] = {"fault": CASES[issue]["fault"], "expected": CASES[issue]["expected"][0],
                                       "mechanism": None, "user_actions": [], "reproduced": None, "final_state": None,
                                       "stuck": None, "illegal": [], "note": "the case could not run: %s" % error}

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
        for case in self.part_cases():
            if not all(applies(issue, self.args.release) for issue in case.issues):
                for issue in case.issues:
                    self.report["cases"][issue] = not_applicable(issue, self.args.release)
                continue
            try:
                case()
            except Exception as e:  # one case that cannot run is reported, the others still run
                for issue in case.issues:
                    self.failed_case(issue, ("" if isinstance(e, Failure) else type(e).__name__ + ": ") + str(e)[:600])
        # Last, on CloudStack as released only: the series started on the database this run left.
        if self.runs_already_stuck():
            try:
                self.already_stuck()
            except Exception as e:
                self.failed_case("already-stuck", ("" if isinstance(e, Failure) else type(e).__name__ + ": ") + str(e)[:600])

    def part_cases(self):
        """The cases of this run's part (two runs per build share them, side by side, so that neither takes
        longer than a line's other runs), less those CKS_E2E_REPORT_CASES leaves out."""
        # error_then_start leaves a cluster in Error on every line, so that already_stuck (last in part 1) has
        # one where 4.20 lacks #13544 and #14159 and the users' own way out brought the others back.
        parts = {1: (self.capacity, self.partial_scale, self.offering_scale, self.portless_firewall_rule,
                     self.etcd_scale_down, self.hung_delete, self.error_then_start),
                 2: (self.restarts, self.start_timeout, self.ip_limit)}
        # A developer's shortcut: CKS_E2E_REPORT_CASES=capacity,hung_delete runs only those.
        only = os.environ.get("CKS_E2E_REPORT_CASES")
        return [c for c in parts[self.args.part] if only is None or c.__name__ in only.split(",")]

    def runs_already_stuck(self):
        """already_stuck runs last in part 1 as released: its clusters left Error (error-then-start, every line)
        and, where the users' way out did not bring them back, Scaling (#12565) and Destroying (#13544)."""
        only = os.environ.get("CKS_E2E_REPORT_CASES")
        return (self.args.build == "unpatched" and self.args.part == 1
                and (only is None or "already_stuck" in only.split(",")))

    def expected_cases(self):
        """The report's cases this run must have recorded (run, not applicable, or failed to run)."""
        issues = {issue for case in self.part_cases() for issue in case.issues}
        return issues | ({"already-stuck"} if self.runs_already_stuck() else set())

    def already_stuck(self):
        """The series installed on a deployment that already has stuck clusters: the clusters this run (CloudStack
        as released) left away from Running, Stopped and Destroyed; server 1 stopped and the patched build started
        on the same database; after its first passes, each cluster is back or left, and cks-state explain (read
        only) names each one left."""
        clusters = set()
        for c in self.report["cases"].values():
            clusters |= {int(x) for x in (c.get("final_states") or {})}
        before = {cid: self.states.state(cid) for cid in sorted(clusters)}
        stuck = {cid: s for cid, s in before.items() if s not in ("Running", "Stopped", "Destroyed")}
        if not stuck:
            raise Failure("no cluster was left stuck to start the series on")
        self.servers.kill(1)
        started = self.servers.start(1, variant="patched")
        self.report["restarts"].append(dict(started, variant="patched"))
        self.hosts_up()
        self.states.wait("the stuck clusters back", lambda: all(self.states.state(c) in ("Running", "Stopped")
                                                                 for c in stuck), self.passes(3))
        after = {cid: self.states.state(cid) for cid in stuck}
        left = {cid: s for cid, s in after.items() if s not in ("Running", "Stopped")}
        explained = {cid: self.explain(cid) for cid in left}
        unexplained = [cid for cid, text in explained.items()
                       if text.startswith("explain failed") or (self.uuid(cid) not in text and "cluster %d" % cid not in text)]
        self.report["cases"]["already-stuck"] = {
            "fault": CASES["already-stuck"]["fault"],
            "mechanism": {"asserted": CASES["already-stuck"]["mechanism"], "held": True,
                          "seen": "stuck before: %s" % stuck},
            "expected": CASES["already-stuck"]["expected"][0], "reproduced": True, "stuck": bool(unexplained),
            "before": {str(c): s for c, s in stuck.items()}, "final_states": {str(c): s for c, s in after.items()},
            "final_state": "/".join(sorted(set(after.values()))), "back": sorted(set(stuck) - set(left)),
            "left": {str(c): {"state": left[c], "explain": explained[c]} for c in left},
            "left_unexplained": unexplained, "user_actions": [], "way_out": None,
            "note": "%d stuck; back: %s; left: %s" % (len(stuck), {c: after[c] for c in stuck if c not in left}, left),
            "illegal": illegal_changes({c: self.states.seen.get(c, []) for c in stuck}, self.table)}

    def explain(self, cid):
        """cks-state explain of cluster cid, read only, as an operator runs it (its first 6,000 characters: the
        jobs it lists come before the scanner's verdict and its reason)."""
        root = os.path.dirname(os.path.dirname(os.path.abspath(self.args.script)))
        env = dict(os.environ, CKS_E2E_DB_PASSWORD="cloud")
        try:
            out = subprocess.run(["java", "-jar", os.path.join(root, "java", "target", "cks-state-cli.jar"), "explain",
                                  "--jdbc-url", "jdbc:mariadb://127.0.0.1:%d/cloud" % self.args.db_port, "--user", "cloud",
                                  "--password-env", "CKS_E2E_DB_PASSWORD", str(cid)],
                                 capture_output=True, text=True, timeout=120, env=env)
            return (out.stdout + out.stderr)[:6000]
        except (OSError, subprocess.TimeoutExpired) as e:
            return "explain failed: %s" % e

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
        lines.append("  #%s: reproduced %s, final %s (expected %s), stuck %s: %s" % (
            issue, c["reproduced"], c["final_state"], c.get("expected"), c["stuck"], c["note"]))
        for a in c.get("user_actions") or []:
            lines.append("      user: %s -> %s (%s)" % (a["action"], a["state"], a["result"][:160]))
        for i in c.get("illegal") or []:
            lines.append("      ILLEGAL: cluster %s %s -> %s" % (i["cluster"], i["from"], i["to"]))
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
    p.add_argument("--part", type=int, choices=(1, 2), default=1,
                   help="cases: which of the two runs that share a build's cases (OUT/report-reports-BUILD or reports2)")
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
    reports.run_and_write("report-%s-%s" % (("reports" if args.part == 1 else "reports2") if args.run == "cases"
                                             else "marvin", args.build), text)
    ran = (reports.report.get("marvin") if args.run == "marvin"
           else reports.expected_cases() <= set(reports.report["cases"]))
    sys.exit(1 if reports.report.get("error") or not ran else 0)


if __name__ == "__main__":
    main()
