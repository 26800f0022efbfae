#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# make standin-test: the node stand-in's rules (scripts/e2e/test_standin.py) on CloudStack's own database
# of each line the e2e runs (cloudstack/e2e/<line>), on a throwaway MariaDB of its own (port 3437).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export CKS_MARIADB_PORT=3437 CKS_MARIADB_DIR="$ROOT/.mariadb/standin-3437"
SOCK="/tmp/cks-mariadb-$CKS_MARIADB_PORT.sock"

"$ROOT/scripts/mariadb.sh" start >&2
trap '"$ROOT/scripts/mariadb.sh" stop >/dev/null 2>&1 || true' EXIT
for dir in "$ROOT"/cloudstack/e2e/*/; do
    line="$(basename "$dir")"
    "$ROOT/scripts/cloudstack-db.sh" load "$line" >&2
    echo "standin-test: line $line" >&2
    (cd "$ROOT/scripts/e2e" && timeout 300 python3 test_standin.py --socket "$SOCK" -v)
done
