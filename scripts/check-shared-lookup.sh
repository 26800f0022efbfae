#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# The one lookup of ../shared (scripts/shared.sh), tried as a new user meets it: a clone made in a
# temporary folder (or a clone of it) finds CloudStack's sources beside the repository it came from, and the
# scripts that read them (cloudstack-db.sh, e2e-cloudstack.sh) get past the lookup there; a clone
# whose origins have none fails in one line naming CKS_SHARED_DIR; CKS_SHARED_DIR overrides both.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "check-shared-lookup: $*" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The clone gets this tree's lookup and lines (committed or not: this is what is being checked).
clone() {
    git clone -q "$1" "$2"
    cp -r "$ROOT/scripts/." "$2/scripts/"
    cp -r "$ROOT/cloudstack/." "$2/cloudstack/"
}
clone "$ROOT" "$tmp/first"
shared="$("$ROOT/scripts/shared.sh")"
# The lookups below are the ones without an override: a CKS_SHARED_DIR of the caller's would answer them all.
unset CKS_SHARED_DIR
got="$("$tmp/first/scripts/shared.sh")" || fail "a clone in $tmp did not find the shared folder of its origin"
[ "$got" = "$shared" ] || fail "a clone in $tmp found $got, not $shared"
for line in $(cd "$ROOT" && ROOT="$ROOT" bash -c 'source scripts/shared.sh; lines'); do
    (cd "$tmp/first" && ROOT="$PWD" bash -c "source scripts/shared.sh; tarball_sha256 \"\$(line_tarball $line)\"" >/dev/null) \
        || fail "a clone in $tmp did not find line $line's source"
done
# The scripts that read the shared folder, from that clone: the database's dump (cached or built)
# and the e2e's build key.
(cd "$tmp/first" && scripts/cloudstack-db.sh dump 4.20 >/dev/null 2>&1) || fail "cloudstack-db.sh in a clone in $tmp failed"
mkdir -p "$tmp/first/java/library/target" && : > "$tmp/first/java/library/target/cks-state-0.jar"
(cd "$tmp/first" && scripts/e2e-cloudstack.sh key >/dev/null) || fail "e2e-cloudstack.sh's build key failed in a clone in $tmp"

# A clone of that clone finds it through its origins.
clone "$tmp/first" "$tmp/second/clone"
got="$(cd "$tmp/second/clone" && scripts/shared.sh)" || fail "a clone of a clone in $tmp did not find the shared folder"
[ "$got" = "$shared" ] || fail "a clone of a clone in $tmp found $got, not $shared"
# Without an origin that leads to one: one line naming the override.
git -C "$tmp/second/clone" remote remove origin
if err="$(cd "$tmp/second/clone" && scripts/shared.sh 2>&1)"; then
    fail "a clone without a shared folder found one: $err"
fi
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "not one line: $err"
case "$err" in *CKS_SHARED_DIR*) ;; *) fail "the line names no override: $err" ;; esac
err="$(cd "$tmp/second/clone" && scripts/cloudstack-db.sh dump 2>&1)" && fail "cloudstack-db.sh ran without the sources"
case "$err" in *CKS_SHARED_DIR*) ;; *) fail "cloudstack-db.sh's failure names no override: $err" ;; esac
got="$(cd "$tmp/second/clone" && CKS_SHARED_DIR="$shared" scripts/shared.sh)" || fail "CKS_SHARED_DIR was not honoured"
[ "$got" = "$shared" ] || fail "CKS_SHARED_DIR gave $got"
echo "check-shared-lookup: a temp-folder clone finds $shared; without one, one line naming CKS_SHARED_DIR"
