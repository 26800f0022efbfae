#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The database upgrade path of a CloudStack source tree, read from the source as CloudStack walks it:
DatabaseUpgradeChecker's hierarchy (`.next("4.20.0.0", new Upgrade42000to42010())`, in declaration
order), DatabaseVersionHierarchy.getPath from 4.0.0 (what create-schema.sql leaves) to the code's version:
every node at or above 4.0.0 and below the code's version, distinct by the version it writes (the
first wins). Each upgrade's version is its getUpgradedVersion(), its scripts the META-INF/db files its
getPrepareScripts() and getCleanupScripts() name (a class that does not declare one inherits its
parent's, or DbUpgrade's default: schema-<from>to<to>[-cleanup].sql of its version range).

    scripts/cloudstack-upgrades.py SRC CODE_VERSION

prints one line per upgrade: class, version it writes, prepare scripts, cleanup scripts
(comma-separated, - for none), the input of scripts/cloudstack-db.sh.
"""
import pathlib
import re
import sys

CHECKER = "engine/schema/src/main/java/com/cloud/upgrade/DatabaseUpgradeChecker.java"
DAO = "engine/schema/src/main/java/com/cloud/upgrade/dao"


def version_key(text):
    """CloudStackVersion's order: three or four numbers, a missing fourth as 0."""
    parts = [int(p) for p in re.match(r"(\d+(?:\.\d+){2,3})", text).group(1).split(".")]
    return tuple(parts + [0] * (4 - len(parts)))


def method_body(source, name):
    """The text of method `name`'s body (to its closing brace at the method's depth), or None."""
    m = re.search(r"\b" + name + r"\s*\([^)]*\)\s*(?:throws [\w., ]+)?\{", source)
    if not m:
        return None
    depth, i = 1, m.end()
    while depth and i < len(source):
        depth += {"{": 1, "}": -1}.get(source[i], 0)
        i += 1
    return source[m.end():i - 1]


class Upgrades:
    def __init__(self, src):
        self.src = pathlib.Path(src)

    def source(self, cls):
        path = self.src / DAO / f"{cls}.java"
        if not path.is_file():
            sys.exit(f"cloudstack-upgrades: no source of {cls} at {path}")
        return path.read_text()

    def member(self, cls, name):
        """Method `name`'s body in cls or the nearest parent that declares it; None: DbUpgrade's default."""
        seen = set()
        while cls and cls not in seen:
            seen.add(cls)
            text = self.source(cls)
            body = method_body(text, name)
            if body is not None:
                return body
            parent = re.search(r"\bclass\s+" + cls + r"\s+extends\s+(\w+)", text)
            cls = parent.group(1) if parent and (self.src / DAO / f"{parent.group(1)}.java").is_file() else None
        return None

    def scripts(self, cls, name, suffix):
        body = self.member(cls, name)
        if body is None:
            # DbUpgrade's default: schema-<from>to<to><suffix>.sql of getUpgradableVersionRange(), dots dropped.
            versions = re.findall(r'"([\d.]+)"', self.member(cls, "getUpgradableVersionRange") or "")
            if len(versions) != 2:
                sys.exit(f"cloudstack-upgrades: {cls} has neither {name}() nor a literal version range")
            return f"schema-{versions[0].replace('.', '')}to{versions[1].replace('.', '')}{suffix}.sql"
        found = re.findall(r'"META-INF/db/([\w.-]+\.sql)"', body)
        if not found and not re.search(r"return\s+(new\s+InputStream\s*\[\s*(0\s*\]|\]\s*\{\s*\})|null)\s*;", body):
            # A script named another way (a format, a constant) would be skipped: fail instead.
            sys.exit(f"cloudstack-upgrades: {cls}.{name}() names no META-INF/db script literally, nor returns none")
        return ",".join(found) or "-"

    def upgraded_version(self, cls):
        m = re.search(r'return\s+"([\d.]+)"', self.member(cls, "getUpgradedVersion") or "")
        if not m:
            sys.exit(f"cloudstack-upgrades: {cls}.getUpgradedVersion() returns no version literal")
        return m.group(1)


def path(src, code_version):
    checker = (pathlib.Path(src) / CHECKER).read_text()
    nodes = re.findall(r'\.next\(\s*"([\d.]+)"\s*,\s*new\s+(\w+)\(\)\s*\)', checker)
    steps = len(re.findall(r'\.next\(\s*"', checker))
    if not nodes or len(nodes) != steps:
        sys.exit(f"cloudstack-upgrades: {CHECKER} has {steps} hierarchy steps, {len(nodes)} of the form"
                 " .next(\"<version>\", new <Upgrade>()) read")
    upgrades = Upgrades(src)
    low, high = version_key("4.0.0"), version_key(code_version)
    out, written = [], set()
    for version, cls in nodes:
        if not low <= version_key(version) < high:
            continue
        upgraded = upgrades.upgraded_version(cls)
        if upgraded in written:
            continue
        written.add(upgraded)
        out.append((cls, upgraded, upgrades.scripts(cls, "getPrepareScripts", ""),
                    upgrades.scripts(cls, "getCleanupScripts", "-cleanup")))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: cloudstack-upgrades.py SRC CODE_VERSION")
    for row in path(sys.argv[1], sys.argv[2]):
        print(" ".join(row))


if __name__ == "__main__":
    main()
