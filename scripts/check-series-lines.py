#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The series of the release lines stay one change: every file that two series add is the same text
in both lines once applied, unless cloudstack/line-differences.tsv says why it is not (CloudStack
differs there). A listed file that no longer differs, or a file only one series adds without a
reason, fails too.

    scripts/check-series-lines.py WORK   (WORK: target/cloudstack, each line applied in WORK/<line>/src)
"""
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def lines():
    for row in (ROOT / "cloudstack" / "lines.tsv").read_text().splitlines():
        if row and not row.startswith("#"):
            yield row.split("\t")[0]


def added(line):
    """The files the line's series adds (`new file mode`, or the new name of a rename) and does not delete
    (or rename away) later, in patch order."""
    out = []
    for patch in sorted((ROOT / "cloudstack" / line).glob("*.patch")):
        for m in re.finditer(r"^diff --git a/(\S+) b/(\S+)\n(?:(new|deleted) file mode|similarity index \d+%\nrename from)",
                             patch.read_text(), re.M):
            if m.group(3) == "new":
                out.append(m.group(1))
            elif m.group(1) in out:
                out.remove(m.group(1))
            if m.group(3) is None:
                out.append(m.group(2))
    return out


def reasons():
    out = {}
    for row in (ROOT / "cloudstack" / "line-differences.tsv").read_text().splitlines():
        if row and not row.startswith("#"):
            path, reason = row.split("\t", 1)
            out[path] = reason
    return out


def main(work):
    names = list(lines())
    files = {line: added(line) for line in names}
    explained = reasons()
    failures, used = [], set()
    for path in sorted(set().union(*files.values())):
        having = [line for line in names if path in files[line]]
        if len(having) < len(names):
            if path not in explained:
                failures.append(f"{path}: added by {', '.join(having)} only, and line-differences.tsv says not why")
            used.add(path)
            continue
        texts = {line: (pathlib.Path(work) / line / "src" / path).read_text() for line in names}
        first = names[0]
        for other in names[1:]:
            if texts[first] == texts[other]:
                continue
            used.add(path)
            if path not in explained:
                diff = "".join(list(difflib.unified_diff(texts[first].splitlines(True), texts[other].splitlines(True),
                                                         f"{first}/{path}", f"{other}/{path}"))[:40])
                failures.append(f"{path}: the lines' copies differ, and line-differences.tsv says not why:\n{diff}")
    for path in sorted(set(explained) - used):
        failures.append(f"{path}: listed in line-differences.tsv, but the lines' copies are the same (or it is no added file)")
    if failures:
        sys.exit("check-series-lines: " + "\ncheck-series-lines: ".join(failures))
    shared = sum(1 for p in set().union(*files.values()) if p not in used)
    print(f"check-series-lines: {shared} added file(s) the same in every line, {len(used)} differing where CloudStack"
          f" differs (cloudstack/line-differences.tsv)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "cloudstack"))
