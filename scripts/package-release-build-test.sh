#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# make package-release-test: scripts/package.sh release on a release's own source as Apache publishes
# it. The line's tarball is repacked as apache-cloudstack-<version>-src.tar.bz2 (build_asf.sh's layout: a
# git archive under that folder, bzip2) with its .sha512 as build_asf.sh writes it (sha512sum); the
# packages built from it must carry an overlay of exactly the classes make package built from lines.tsv's
# tarball (same names, same CRCs), and name that source in its manifest. After make package.
#
#   scripts/package-release-build-test.sh [LINE]   (default 4.20)
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
LINE="${1:-4.20}"
OUT="${CKS_PACKAGE_OUT:-$ROOT/target/package}"
log() { echo "package-release-test: $*" >&2; }
die() { log "FAIL: $*"; exit 1; }

release="$(cat "$OUT/$LINE/cloudstack-release" 2>/dev/null)" || die "no $OUT/$LINE/cloudstack-release: run make package first"
name="apache-cloudstack-$release-src"
TMP="$(mktemp -d -p /var/tmp cks-state-release.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/x"
tar -xzf "$(line_tarball "$LINE")" -C "$TMP/x"
mv "$TMP/x/"* "$TMP/$name"
tar -cf - -C "$TMP" "$name" | bzip2 > "$TMP/$name.tar.bz2"
(cd "$TMP" && sha512sum "$name.tar.bz2" > "$name.tar.bz2.sha512")
rm -rf "$TMP/x" "$TMP/$name"

start=$SECONDS
"$ROOT/scripts/package.sh" release "$LINE" "$TMP/$name.tar.bz2" "$TMP/$name.tar.bz2.sha512"
took=$((SECONDS - start))

classes() { unzip -v "$1" | awk '/\.class$/ { print $7, $8 }' | sort; }
built="$OUT/$name/$LINE"
[ -f "$built/cks-state_$(library_version)+cs$(tr '-' '~' <<< "$release")_amd64.deb" ] || die "no .deb in $built"
ls "$built"/*.rpm >/dev/null 2>&1 || die "no .rpm in $built"
diff <(classes "$OUT/$LINE/cks-state-overlay.jar") <(classes "$built/cks-state-overlay.jar") > "$TMP/classes.diff" \
    || die "the overlay built from $name.tar.bz2 differs from make package's: $(head -20 "$TMP/classes.diff")"
grep -q "^CloudStack-Source: $name.tar.bz2" <<< "$(unzip -p "$built/cks-state-overlay.jar" META-INF/MANIFEST.MF)" \
    || die "the overlay's manifest does not name $name.tar.bz2"
log "ok: $LINE: built from $name.tar.bz2 (its SHA-512 checked) in $took s: $(classes "$built/cks-state-overlay.jar" | wc -l) classes, the same as make package's; a .deb and an .rpm per architecture"
rm -rf "$ROOT/target/cloudstack-release/$name"
