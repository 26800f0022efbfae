# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The users' reports of user_reports.py: each case's words, fault, mechanism and expected end (CASES), and
the verdict on both builds (merged_reports, reports_failed, reports_table). The steps of each case are in
report_steps.py."""
import json
import os

from states import version_tuple

# Each case: the user's words (report), the fault injected and where (fault), the state the series must reach
# (expected: the state and why), what is asserted of the report's mechanism on both builds (mechanism), and
# the states it is stuck in when it ends there. A case that is no user's report (restart, error-then-start,
# already-stuck) says so in its report.
CASES = {
    "12699": {"report": "CKS cluster remains in Alert state if the scaling fails due to capacity issue",
              "fault": "a scale up by one node whose host runs out of room after CKS planned it: the simulator fails"
                       " the new VM's StartCommand on the cluster's only host, as a hypervisor out of memory answers;"
                       " then the host has room again and the admin starts the VM the scale left stopped",
              "mechanism": "the scale fails on its new VM and the cluster is left in Alert",
              "expected": ("Running", "the VMs run and are ready nodes once the host has room: the Alert pass"
                                      " probes the cluster back, at the size its VMs are"),
              "stuck_in": ("Alert",),
              # Where CloudStack's own code no longer shows the report (read in its source, seen in the e2e).
              "fixed_in": ("4.23.0.0", "the scale worker destroys the VMs a failed scale-up made"
                                       " (KubernetesClusterScaleWorker.cleanupNewlyCreatedVms, #12386)")},
    "12123": {"report": "a partial scale-up leaves the cluster in Alert",
              "fault": "a user's scale up by two nodes where the account's VM limit leaves room for one",
              "mechanism": "the scale makes one VM of two and the cluster is left in Alert",
              "expected": ("Running", "the cluster's VMs run and are ready nodes; the Alert pass brings it back at"
                                      " the size its VMs are"),
              "stuck_in": ("Alert",),
              "fixed_in": ("4.22.1.0", "the account's limits are checked before any VM is made"
                                       " (KubernetesClusterManagerImpl: \"Resource limits prevent scaling the cluster\")")},
    "14159": {"report": "scale-down with separate etcd nodes revokes the wrong SSH rule and fails: Alert with a stale"
                        " worker count",
              "fault": "none but the report's steps: a cluster of one worker and three separate etcd nodes, scaled to"
                       " two workers, then back to one",
              "mechanism": "the scale down fails on its SSH network rules after it removed the worker, and node_count"
                           " still counts that worker",
              "expected": ("Running", "with the series the nodes' SSH rule is the one the scale replaces, the worker"
                                      " leaves node_count as it goes, and a cluster with fewer map rows than"
                                      " node_count, every VM a ready node, is probed back to Running"),
              "stuck_in": ("Alert",),
              # CreateKubernetesClusterCmd's etcdnodes: since 4.21.0.
              "since": "4.21.0.0", "needs": "separate etcd nodes (etcdnodes)"},
    "13544": {"report": "delete hangs: stuck in Destroying (an SSH exec that does not return)",
              "fault": "the control node's PV clean-up script prints a line and then never returns (the stand-in"
                       " holds it for the rest of the case); a second delete is sent while the first hangs",
              "mechanism": "the delete's job stays IN_PROGRESS with the cluster in Destroying",
              "expected": ("Destroying", "nothing in CloudStack ends an SSH exec that printed and holds: the delete's"
                                         " job is alive, so neither the scanner nor a second delete may take the"
                                         " cluster from it; a management server restart fails the job, and then the"
                                         " scanner fails the orphaned delete"),
              "stuck_in": ("Destroying",),
              # CreateKubernetesClusterCmd's enablecsi: since 4.22.0.
              "since": "4.22.0.0", "needs": "the CSI driver at create (enablecsi)"},
    "10402": {"report": "after Error the cluster goes to Destroying and remains in that state",
              "fault": "a user's create at the account's public IP limit (0): the cluster's network gets no source NAT"
                       " address; then the delete",
              "mechanism": "the create fails and the delete leaves the cluster in Destroying",
              "expected": ("Destroyed", "the delete of a cluster whose network never got its address ends"),
              "stuck_in": ("Destroying",)},
    "6094": {"report": "stuck in Starting until the timeout, then Error",
             "fault": "a create whose nodes never become ready (the stand-in keeps them NotReady) past"
                      " cloud.kubernetes.cluster.start.timeout",
             "mechanism": "the cluster stays in Starting until the start timeout, then goes to Error",
             "expected": ("Error", "nodes that never become ready fail the create when the configured timeout ends"
                                   " (Starting -CreateFailed-> Error), as the reporter saw; only a delete leads"
                                   " out of Error, the table's one row out of it"),
             "stuck_in": ("Starting",)},
    "7920": {"report": "stuck in Scaling after a service offering change fails",
             "fault": "a scale of a Running cluster to a bigger service offering whose ScaleVmCommand fails on the"
                      " hypervisor (the simulator answers it with a failure), dynamic scaling enabled",
             "mechanism": "the offering scale fails on a VM and the cluster is left away from Running",
             "expected": ("Running", "the VMs keep running on their old offering and are ready nodes: the failed"
                                     " scale ends by the table and the Alert pass probes the cluster back"),
             "stuck_in": ("Scaling", "Alert"),
             "fixed_in": ("4.23.0.0", "the symptom only: the offering scale still fails, and 4.23's table fails a"
                                      " scale back to Running (Scaling -OperationFailed-> Running, #12386) with the"
                                      " VMs on their old offering")},
    "12565": {"report": "stuck in Scaling: the scale fails on a null port in removeSshFirewallRule",
              "fault": "a TCP firewall rule without ports (all ports) on the cluster's public IP, then a scale up"
                       " (it re-creates the nodes' SSH rule, which the database then lists after the rule without"
                       " ports) and a scale down",
              "mechanism": "the scale fails in its network rules with the cluster left away from Running",
              "expected": ("Running", "the series compares the nodes' SSH rule's port null-safely: the scale goes"
                                      " through"),
              "stuck_in": ("Scaling", "Alert")},
    "restart": {"report": "no user's: a management server restart during a create and a scale (an upstream gap)",
                "fault": "a create waiting for its nodes and a scale waiting for its new node, their server killed and"
                         " started again, then the nodes Ready",
                "mechanism": "both clusters are left in Starting and Scaling after the restart",
                "expected": ("Running", "the restarted server fails its old jobs, the scanner fails the operations"
                                        " they left, and the Alert pass probes the clusters back"),
                "stuck_in": ("Starting", "Scaling")},
    "error-then-start": {"report": "no user's: a cluster whose create failed, then a start",
                         "fault": "a create whose VMs cannot start (the simulator fails StartCommand in the zone);"
                                  " the fault lifted, the user starts the cluster",
                         "mechanism": "the create fails to Error and the start does not take it out",
                         "expected": ("Error", "CloudStack's table has no start out of Error (its one row out is"
                                               " DestroyRequested): the start is refused, and a delete ends it"),
                         "stuck_in": ()},
    "already-stuck": {"report": "no user's: the series installed on a deployment that already has stuck clusters",
                      "fault": "the clusters the run on CloudStack as released left stuck (after its users' stop, start"
                               " and delete); its server stopped and the patched build started on the same database",
                      "mechanism": "clusters left stuck by CloudStack as released",
                      "expected": ("Running", "the first passes bring back what the series can (Running or Stopped);"
                                              " each cluster left, cks-state explain (read only) names"),
                      "stuck_in": (), "as_released_only": True},
}


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
    return {"reproduced": None, "final_state": None, "stuck": None, "applies": False, "fault": CASES[issue]["fault"],
            "expected": CASES[issue]["expected"][0], "mechanism": None, "user_actions": [], "illegal": [],
            "note": "not run: CloudStack %s has no %s (since %s)" % (release, CASES[issue]["needs"],
                                                                     CASES[issue]["since"])}


# ---- the merged report (merge.py): each case on both builds
def merged_reports(out, release):
    """{case: {report, fault, mechanism, expected, expected_why, applies, fixed_upstream, unpatched, patched}} from
    OUT/report-reports-BUILD.json and report-reports2-BUILD.json, the two parts of a build's cases (a case that
    did not run: null); applies is false where the release lacks the report's feature."""
    builds = {}
    for build in ("unpatched", "patched"):
        for part in ("reports", "reports2"):
            path = os.path.join(out, "report-%s-%s.json" % (part, build))
            if os.path.exists(path):
                with open(path) as f:
                    builds.setdefault(build, {}).update(json.load(f)["cases"])
    merged = {issue: dict({"report": case["report"], "fault": case["fault"], "mechanism": case["mechanism"],
                           "expected": case["expected"][0], "expected_why": case["expected"][1],
                           "applies": applies(issue, release), "fixed_upstream": fixed_upstream(issue, release)},
                          **{b: builds.get(b, {}).get(issue) for b in ("unpatched", "patched")})
              for issue, case in CASES.items()}
    # Run at the end of the run as released, on the series' server: its record is the series' column.
    for issue, case in CASES.items():
        if case.get("as_released_only"):
            merged[issue]["patched"], merged[issue]["unpatched"] = merged[issue]["unpatched"], None
    return merged


def is_users_report(issue):
    return issue.isdigit()


def reports_failed(reports):
    """Why the reports fall short, one line each (none: they pass). Of the cases the release has the feature of:
    one did not run on a build; with the series, one did not end where its case says (every cluster of it);
    a state change of a case's cluster is not the line's table's, on either build; or, of the users' reports
    CloudStack of the release has not fixed, more than two were not reproduced as released."""
    why = []
    wanted = {i: r for i, r in reports.items() if r["applies"]}
    for issue, r in wanted.items():
        for build in ("unpatched", "patched"):
            if build == "unpatched" and CASES[issue].get("as_released_only"):
                continue
            c = r[build]
            if not c or c.get("reproduced") is None:
                why.append("#%s did not run on the %s build%s" % (issue, build, ": " + c["note"] if c else ""))
                continue
            for i in c.get("illegal") or []:
                why.append("#%s %s: cluster %s went %s -> %s, no path of the table" % (issue, build, i["cluster"],
                                                                                       i["from"], i["to"]))
        p = r["patched"]
        if CASES[issue].get("as_released_only"):
            if p and p.get("left_unexplained"):
                why.append("%s: cluster(s) %s left without cks-state explain naming them" % (issue, p["left_unexplained"]))
            continue
        if p and p.get("reproduced") is not None:
            missed = {cid: s for cid, s in (p.get("final_states") or {"": p["final_state"]}).items() if s != r["expected"]}
            if missed:
                why.append("#%s with the series ended %s, its case says %s" % (
                    issue, ", ".join(sorted(set(missed.values()))), r["expected"]))
    open_upstream = [i for i, r in wanted.items() if is_users_report(i) and not r["fixed_upstream"]]
    not_reproduced = [i for i in open_upstream if (wanted[i]["unpatched"] or {}).get("reproduced") is False]
    if len(not_reproduced) > 2:
        why.append("reports not reproduced as released: %s (at most two may fail to)" % ", ".join(not_reproduced))
    return why


def reports_table(reports):
    def cell(c):
        if not c:
            return "-"
        way = (", out by " + c["way_out"]) if c.get("way_out") else ""
        return "%s, %s%s%s" % ("reproduced" if c["reproduced"] else "not reproduced", c["final_state"],
                               ", STUCK" if c["stuck"] else "", way)
    lines = ["%-17s | %-9s | %-44s | %s" % ("case", "expected", "as released", "with the series")]
    for issue, r in reports.items():
        name = "#" + issue if is_users_report(issue) else issue
        if not r["applies"]:
            lines.append("%-17s | not on this release: %s (since %s)" % (name, CASES[issue]["needs"], CASES[issue]["since"]))
            continue
        lines.append("%-17s | %-9s | %-44s | %s" % (name, r["expected"], cell(r["unpatched"]), cell(r["patched"])))
        if r["fixed_upstream"]:
            lines.append("                    CloudStack of this release no longer shows it: %s" % r["fixed_upstream"])
    return "\n".join(lines)


def self_test():
    """The verdict's rules on made-up runs (make scripts-test): each rule can fail a line."""
    def case(final, reproduced=True, illegal=()):
        return {"reproduced": reproduced, "final_state": final, "final_states": {"1": final}, "stuck": False,
                "illegal": list(illegal), "note": ""}

    def run(**patched):
        reports = merged_reports("/nonexistent", "4.23.0.0")
        for issue, r in reports.items():
            r["unpatched"] = None if CASES[issue].get("as_released_only") else case("Alert")
            r["patched"] = case(r["expected"])
        for issue, c in patched.items():
            reports[issue]["patched"] = c
        return reports_failed(reports)

    assert run() == [], run()
    assert run(**{"14159": case("Alert")}) == ["#14159 with the series ended Alert, its case says Running"], run()
    why = run(**{"12565": case("Running", illegal=[{"cluster": 7, "from": "Running", "to": "Destroyed"}])})
    assert why == ["#12565 patched: cluster 7 went Running -> Destroyed, no path of the table"], why
    assert run(**{"6094": None}) == ["#6094 did not run on the patched build"], run(**{"6094": None})
    left = dict(case("Alert"), left_unexplained=[9])
    assert run(**{"already-stuck": left}) == ["already-stuck: cluster(s) [9] left without cks-state explain naming them"]
    reports = merged_reports("/nonexistent", "4.23.0.0")
    for issue, r in reports.items():
        r["unpatched"] = case("Running", reproduced=False)
        r["patched"] = case(r["expected"])
    assert any(w.startswith("reports not reproduced as released") for w in reports_failed(reports))
    print("report_cases: the verdict's rules hold on %d made-up runs" % 6)


if __name__ == "__main__":
    self_test()
