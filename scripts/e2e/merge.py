#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""make e2e-cloudstack's reports joined. `merge.py line --release R --out OUT` writes a line's OUT/report.json
from its runs: both modes, the overlay run (the as-released build with the package's overlay), the users' reports of both builds (report_cases.merged_reports) and their Marvin
results (marvin_tests.merged_marvin); it exits non-zero when a mode had a stuck cluster, a lost state or an
illegal transition by the line's table, the reports fall short (report_cases.reports_failed), or a Marvin
test that passes unpatched does not pass patched (marvin_tests.marvin_failed). `merge.py lines --out OUTS
LINE...` writes OUTS/report.json keyed by line (lines.<line>: OUTS/<line>/report.json) and exits non-zero
when a line failed or has no report."""
import argparse
import json
import os
import sys

from cloudstack_e2e import failed, text, write
from marvin_tests import marvin_failed, marvin_table, merged_marvin
from report_cases import merged_reports, reports_failed, reports_table
from states import illegal_changes, release_profile, table_rows


def merge_line(out, release):
    """One line's report.json from its runs' reports; 1 when the line failed."""
    profile = release_profile(release)
    modes = {}
    for mode in ("compat", "fenced"):
        path = os.path.join(out, "report-%s.json" % mode)
        if os.path.exists(path):
            with open(path) as f:
                modes[mode] = json.load(f)
            # The check of the recorded histories, as this version of the check judges them.
            modes[mode]["illegal"] = illegal_changes({int(c): h for c, h in modes[mode]["states"].items()},
                                                     table_rows(profile))
            modes[mode]["illegal_transitions"] = len(modes[mode]["illegal"])
    # The as-released build with the package's overlay: the compat scenario again (its own histories judged too).
    overlay = None
    path = os.path.join(out, "report-overlay.json")
    if os.path.exists(path):
        with open(path) as f:
            overlay = json.load(f)
        overlay["illegal"] = illegal_changes({int(c): h for c, h in overlay["states"].items()}, table_rows(profile))
        overlay["illegal_transitions"] = len(overlay["illegal"])
    reports = merged_reports(out, release)
    reports_short = reports_failed(reports)
    marvin = merged_marvin(out)
    line_failed = (len(modes) < 2 or any(failed(r) for r in modes.values()) or reports_short
                   or marvin_failed(marvin) or overlay is None or failed(overlay))
    # The server without cks-state's library ran in the compat slot: the deployment's, at the top level.
    write(out, "report", {"release": release, "profile": profile, "failed": bool(line_failed), "modes": modes,
                          "reports": reports, "reports_short": reports_short, "marvin": marvin,
                          "library_unavailable": modes.get("compat", {}).get("library_unavailable"),
                          "overlay": dict((overlay or {}).get("overlay") or {}, report=overlay)})
    print("\n".join(["release %s, table %s" % (release, profile)] + [text(r) for r in modes.values()]
                    + ([text(overlay)] if overlay else ["overlay: no report"])
                    + [reports_table(reports)] + ["REPORTS: " + w for w in reports_short] + [marvin_table(marvin)]))
    return 1 if line_failed else 0


def merge_lines(out, lines):
    """OUT/report.json keyed by line from each line's OUT/<line>/report.json; 1 when one failed or is missing."""
    merged, rc = {}, 0
    for line in lines:
        path = os.path.join(out, line, "report.json")
        if not os.path.exists(path):
            print("line %s: no report (%s)" % (line, path))
            merged[line], rc = None, 1
            continue
        with open(path) as f:
            merged[line] = json.load(f)
        print("line %s (%s, table %s): %s" % (line, merged[line]["release"], merged[line]["profile"],
                                               "FAILED" if merged[line]["failed"] else "passed"))
        rc |= 1 if merged[line]["failed"] else 0
    write(out, "report", {"lines": merged})
    return rc


def main():
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("line", "lines"))
    p.add_argument("lines", nargs="*", metavar="LINE")
    p.add_argument("--out", required=True)
    p.add_argument("--release", help="line: the line's CloudStack version (cloudstack/lines.tsv)")
    args = p.parse_intermixed_args()
    if args.what == "lines":
        if not args.lines:
            p.error("lines: name at least one line")
        sys.exit(merge_lines(args.out, args.lines))
    if not args.release:
        p.error("line: --release is required")
    sys.exit(merge_line(args.out, args.release))


if __name__ == "__main__":
    main()
