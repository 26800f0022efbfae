#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Builds HEAD twice, in two fresh clones at different paths, and compares the jars byte for byte.
# The cross toolchains of this checkout are shared; everything else starts clean.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CKS_TOOLCHAINS_DIR="${CKS_TOOLCHAINS_DIR:-$ROOT/.toolchains}"
work="$(mktemp -d /tmp/cks-state-reproducible.XXXXXX)"
trap 'rm -rf "$work"' EXIT

for n in a b; do
    git clone -q "$ROOT" "$work/$n-$RANDOM"
done
for dir in "$work"/*; do
    echo "reproducible: building $(git -C "$dir" rev-parse --short HEAD) in $dir" >&2
    (cd "$dir/java" && mvn -B -q -DskipTests package) >"$dir.log" 2>&1 || { tail -n 30 "$dir.log"; exit 1; }
done
status=0
for jar in library/target/cks-state-0.1.0.jar target/cks-state-cli.jar target/cks-state-simulator.jar; do
    sums="$(sha256sum "$work"/*/java/"$jar" | awk '{print $1}' | sort -u)"
    if [ "$(echo "$sums" | wc -l)" -eq 1 ]; then
        echo "reproducible: $jar identical in both builds: sha256 $sums"
    else
        echo "reproducible: $jar DIFFERS between the two builds:" >&2
        sha256sum "$work"/*/java/"$jar" >&2
        status=1
    fi
done
exit $status
