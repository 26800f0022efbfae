#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""Lines of the product and of its harness, by this definition (non-blank lines of tracked files):

  product  what a management server runs or an operator installs: the core (src/, build.rs, build_support/),
           the JNI glue's sources (jni/src/, jni/build.rs, jni/build_support/), the library's Java (java/library/src/main/), the
           tool's and the simulator's Java (java/tool/src/main/, java/simulator/src/main/; the separate tool
           artifact), the table and the wire (spec/, jni/wire.tsv, jni/native-methods.txt), and the lines the series add to CloudStack (cloudstack/<line>/*.patch,
           '+' lines of each line's series, tests included, counted per line)
  harness  what proves it and is never installed: Rust tests (tests/, fuzz/, benches/, mutants/), Java tests and
           test kits (java/*/src/test/, java/testkit/, java/examples/, java/library/src/jmh/), scripts/, .ci/,
           the Makefile, and the e2e's harness patches (cloudstack/e2e/)
  docs     README.md, BENCHMARKS.md, docs/, cloudstack/README.md

    scripts/line-counts.py [--json]
"""
import json
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GROUPS = OrderedDict([
    ("product", OrderedDict([
        ("core (Rust)", ["src/", "build.rs", "build_support/"]),
        ("JNI glue (Rust)", ["jni/src/", "jni/build.rs", "jni/build_support/"]),
        ("library (Java)", ["java/library/src/main/"]),
        ("tool and simulator (Java)", ["java/tool/src/main/", "java/simulator/src/main/"]),
        ("table and wire (spec)", ["spec/", "jni/wire.tsv", "jni/native-methods.txt"]),
    ])),
    ("harness", OrderedDict([
        ("Rust tests, fuzz, benches, mutants", ["tests/", "fuzz/", "benches/", "mutants/", "jni/tests/"]),
        ("Java tests and kits", ["java/library/src/test/", "java/tool/src/test/", "java/simulator/src/test/",
                                 "java/testkit/", "java/examples/", "java/library/src/jmh/"]),
        ("scripts, CI, Makefile", ["scripts/", ".ci/", "Makefile"]),
        ("e2e harness patches", ["cloudstack/e2e/"]),
    ])),
    ("docs", OrderedDict([
        ("docs", ["README.md", "BENCHMARKS.md", "docs/", "cloudstack/README.md"]),
    ])),
])


def tracked():
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if (ROOT / p).is_file()]


def nonblank(path):
    try:
        return sum(1 for line in (ROOT / path).read_text(errors="replace").splitlines() if line.strip())
    except OSError:
        return 0


def series_added(line_dir):
    """'+' lines the patches of one line add (not the diff headers)."""
    n = 0
    for patch in sorted((ROOT / line_dir).glob("*.patch")):
        for line in patch.read_text(errors="replace").splitlines():
            if line.startswith("+") and not line.startswith("+++") and line[1:].strip():
                n += 1
    return n


def counts():
    files = tracked()
    result = OrderedDict()
    for group, parts in GROUPS.items():
        result[group] = OrderedDict()
        for name, prefixes in parts.items():
            chosen = [f for f in files if any(f == p or f.startswith(p) for p in prefixes)]
            result[group][name] = {"files": len(chosen), "lines": sum(nonblank(f) for f in chosen)}
    for line_dir in sorted(d for d in (ROOT / "cloudstack").iterdir() if d.is_dir() and list(d.glob("*.patch"))):
        result["product"]["series %s (+ lines)" % line_dir.name] = {"files": len(list(line_dir.glob("*.patch"))),
                                                                     "lines": series_added(line_dir)}
    return result


def main():
    c = counts()
    if "--json" in sys.argv[1:]:
        print(json.dumps(c, indent=2))
        return
    for group, parts in c.items():
        total = sum(v["lines"] for k, v in parts.items() if not k.startswith("series"))
        print("%s: %d lines (series not included)" % (group, total))
        for name, v in parts.items():
            print("  %-38s %6d lines in %4d files" % (name, v["lines"], v["files"]))


if __name__ == "__main__":
    main()
