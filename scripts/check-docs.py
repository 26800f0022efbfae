#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""Docs that stay true (make scripts-test): every repository path docs/architecture.md names in backquotes
exists (a bare file name, `codec.rs`, must exist somewhere in the tree), and every file of scripts/ and
scripts/e2e/ is named in scripts/README.md. Fails naming each miss."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What architecture.md names that is no file of this tree: the artifacts' names.
BUILT = {"cks-state-cli.jar", "cks-state-simulator.jar"}


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return out.split()


def missing_architecture_paths(files):
    names = {os.path.basename(f) for f in files}
    with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
        text = f.read()
    misses = []
    for path in sorted(set(re.findall(r"`([A-Za-z0-9_./-]+\.(?:rs|java|md|txt|tsv|sh|py|toml|xml|jar))`", text))):
        if path in BUILT:
            continue
        if "/" in path and not os.path.exists(os.path.join(ROOT, path)):
            misses.append("docs/architecture.md names %s, which does not exist" % path)
        elif "/" not in path and path not in names:
            misses.append("docs/architecture.md names %s, which no file of the tree is" % path)
    return misses


def unlisted_scripts(files):
    with open(os.path.join(ROOT, "scripts", "README.md")) as f:
        text = f.read()
    return ["scripts/README.md does not list %s" % f for f in files
            if re.match(r"scripts/(e2e/)?[^/]+$", f) and f != "scripts/README.md"
            and "`%s`" % os.path.basename(f) not in text]


def main():
    files = tracked()
    misses = missing_architecture_paths(files) + unlisted_scripts(files)
    for m in misses:
        print("check-docs: " + m, file=sys.stderr)
    if not misses:
        print("check-docs: docs/architecture.md's files exist; scripts/README.md lists every script")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
