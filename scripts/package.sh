#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# The package an operator installs on a management server: only what the series changes (the
# overlay: the classes of the modules it patches, built against the line's release), the library
# and its native builds, the systemd drop-in that puts them first on the class path when they match
# the installed release (packaging/bin/cks-state-start), and the operator's cks-state command.
#
#   scripts/package.sh overlay LINE   target/package/<line>/cks-state-overlay.jar, from the patched
#                                     modules scripts/cloudstack.sh test LINE built
#   scripts/package.sh build LINE     the overlay, then a .deb (amd64, arm64) and an .rpm (x86_64,
#                                     aarch64) into target/package/<line>/
#   scripts/package.sh packages LINE  the packages only, from the overlay and cloudstack-release there
#   scripts/package.sh deb LINE       the .deb of this machine's architecture only (its path; the e2e's
#                                     servers unpack it)
#   scripts/package.sh release LINE TARBALL SHA512
#                                     the packages for the release whose own source TARBALL is (Apache's
#                                     apache-cloudstack-<version>-src.tar.bz2 with the .sha512 file
#                                     published beside it, or a git archive of its tag and its SHA-512):
#                                     checked first; then its modules built (once), the line's series
#                                     applied and tested on it (scripts/cloudstack.sh test), and the
#                                     packages into target/package/<tarball's name>/<line>/
#   scripts/package.sh contents FILE  what a package installs, one path per line
#   scripts/package.sh tools          install rpmbuild (Debian's rpm package) and bzip2 when missing
#
# Needs make build (the library and tool jars), dpkg-deb, and rpmbuild (Debian's rpm package: the
# tools command installs it, as make package does).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
WORK_ROOT="${CKS_CLOUDSTACK_WORK:-$ROOT/target/cloudstack}"
OUT_ROOT="${CKS_PACKAGE_OUT:-$ROOT/target/package}"
PLUGIN=plugins/integrations/kubernetes-service
# The modules the series patches: their classes are the overlay (scripts/cloudstack.sh PATCHED_MODULES).
MODULES=(framework/cluster framework/jobs "$PLUGIN")
CLI_JAR="$ROOT/java/target/cks-state-cli.jar"
# Debian architecture, RPM architecture, the library jar's platform folder.
ARCHES=("amd64 x86_64 linux-x86_64" "arm64 aarch64 linux-aarch64")

log() { echo "package.sh: $*" >&2; }
die() { log "$*"; exit 1; }


# The overlay jar of LINE: every class of the patched modules, no resource (the series changes none:
# checked, as a resource beside the stock jar's copy would be loaded twice), a manifest naming the
# release, its source and the series. Reproducible: sorted entries, one fixed time.
cmd_overlay() {
    local line="${1:?usage: $0 overlay LINE}" src out tarball sha patches version
    src="$WORK_ROOT/$line/src"
    out="$OUT_ROOT/$line"
    [ -f "$src/pom.xml" ] || die "$line: no patched source in $src: run scripts/cloudstack.sh test $line first"
    local module
    for module in "${MODULES[@]}"; do
        [ -d "$src/$module/target/classes" ] || die "$line: $module is not built in $src: run scripts/cloudstack.sh test $line first"
    done
    patches=("$ROOT/cloudstack/$line"/*.patch)
    local touched
    touched="$(sed -n 's|^+++ b/||p' "${patches[@]}" | grep '/src/main/' | grep -v '/src/main/java/.*\.java$' || true)"
    [ -z "$touched" ] || die "$line: the series changes files other than main Java sources, which the overlay does not carry: $touched"
    version="$(library_version)"
    tarball="$(line_tarball "$line")"
    sha="$(tarball_sha256 "$tarball")"
    mkdir -p "$out"
    python3 - "$out/cks-state-overlay.jar" "$(source_version "$src")" "$sha" "$(basename "$tarball")" \
        "$version" "$(cat "${patches[@]}" | sha256sum | cut -d' ' -f1)" "${#patches[@]}" "$line" \
        "${MODULES[@]/#/$src/}" <<'PY'
import os, sys, zipfile
out, release, sha, tarball, cks, series_sha, count, line = sys.argv[1:9]
modules = sys.argv[9:]
manifest = ("Manifest-Version: 1.0\r\nCreated-By: cks-state scripts/package.sh\r\n"
            "CloudStack-Release: %s\r\nCloudStack-Source: %s\r\nCloudStack-Source-SHA256: %s\r\n"
            "Cks-State-Version: %s\r\nCks-State-Series: cloudstack/%s, %s patches, sha256 %s\r\n\r\n"
            % (release, tarball, sha, cks, line, count, series_sha))
entries = {}
for module in modules:
    base = os.path.join(module, "target", "classes")
    for folder, _, files in os.walk(base):
        for name in files:
            if not name.endswith(".class"):
                continue
            path = os.path.join(folder, name)
            entry = os.path.relpath(path, base).replace(os.sep, "/")
            if entry in entries:
                sys.exit("%s is in two of the patched modules" % entry)
            entries[entry] = path
fixed = (1980, 1, 1, 0, 0, 0)
tmp = out + ".new"
with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as jar:
    for name, data in [("META-INF/", None), ("META-INF/MANIFEST.MF", manifest.encode())]:
        info = zipfile.ZipInfo(name, fixed)
        info.external_attr = (0o40755 if data is None else 0o100644) << 16
        jar.writestr(info, data or b"")
    for entry in sorted(entries):
        info = zipfile.ZipInfo(entry, fixed)
        info.external_attr = 0o100644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(entries[entry], "rb") as f:
            jar.writestr(info, f.read())
os.replace(tmp, out)
print("%d classes" % len(entries))
PY
    printf '%s\n' "$(source_version "$src")" > "$out/cloudstack-release"
    log "$line: $out/cks-state-overlay.jar for CloudStack $(cat "$out/cloudstack-release")"
}

# The files a package installs, staged under $1 for one platform ($2: the library jar's folder).
stage() {
    local dir="$1" platform="$2" line="$3" version="$4" jar
    jar="$ROOT/java/library/target/cks-state-$version.jar"
    [ -f "$jar" ] || die "the library is not built ($jar is missing): run make build first"
    [ -f "$CLI_JAR" ] || die "the tool is not built ($CLI_JAR is missing): run make build first"
    rm -rf "$dir"
    install -d -m 0755 "$dir/usr/share/cks-state/lib" "$dir/usr/share/cks-state/bin" "$dir/usr/share/cks-state/cli" \
        "$dir/usr/lib/cks-state" "$dir/usr/bin" "$dir/usr/lib/systemd/system/cloudstack-management.service.d"
    install -m 0644 "$OUT_ROOT/$line/cks-state-overlay.jar" "$dir/usr/share/cks-state/lib/cks-state-overlay.jar"
    install -m 0644 "$jar" "$dir/usr/share/cks-state/lib/cks-state.jar"
    install -m 0644 "$CLI_JAR" "$dir/usr/share/cks-state/cli/cks-state-cli.jar"
    unzip -p "$jar" "native/$platform/libcks_state.so" > "$dir/usr/lib/cks-state/libcks_state.so"
    [ -s "$dir/usr/lib/cks-state/libcks_state.so" ] || die "$jar has no native/$platform/libcks_state.so"
    chmod 0644 "$dir/usr/lib/cks-state/libcks_state.so"
    install -m 0644 "$OUT_ROOT/$line/cloudstack-release" "$dir/usr/share/cks-state/cloudstack-release"
    printf '%s\n' "$version" > "$dir/usr/share/cks-state/version"
    chmod 0644 "$dir/usr/share/cks-state/version"
    install -m 0755 "$ROOT/packaging/bin/cks-state-start" "$ROOT/packaging/bin/cks-state-doctor" "$dir/usr/share/cks-state/bin/"
    install -m 0644 "$ROOT/packaging/bin/cks-state-checks.sh" "$dir/usr/share/cks-state/bin/"
    install -m 0755 "$ROOT/packaging/bin/cks-state" "$dir/usr/bin/cks-state"
    install -m 0644 "$ROOT/packaging/systemd/cks-state.conf" "$dir/usr/lib/systemd/system/cloudstack-management.service.d/cks-state.conf"
    find "$dir" -exec touch -h -d @0 {} +
}

cmd_release() {
    local line="${1:?usage: $0 release LINE TARBALL SHA512}" tarball="${2:?usage: $0 release LINE TARBALL SHA512}"
    local sha512="${3:?usage: $0 release LINE TARBALL SHA512 (the .sha512 file published beside the tarball, or its hex)}" name
    line_field "$line" tarball >/dev/null || exit 1
    [ -f "$tarball" ] || die "no file $tarball"
    CKS_CLOUDSTACK_SOURCE="$(realpath "$tarball")"
    [ ! -f "$sha512" ] || sha512="$(realpath "$sha512")"
    export CKS_CLOUDSTACK_SOURCE CKS_CLOUDSTACK_SOURCE_SHA512="$sha512"
    source_sha512_checked || die "$tarball: refused, nothing built"
    log "$line: ${tarball##*/}: SHA-512 matches"
    name="${tarball##*/}"
    name="${name%%.tar*}"
    export CKS_CLOUDSTACK_WORK="$ROOT/target/cloudstack-release/$name"
    WORK_ROOT="$CKS_CLOUDSTACK_WORK"
    OUT_ROOT="${CKS_PACKAGE_OUT:-$ROOT/target/package}/$name"
    "$ROOT/scripts/cloudstack.sh" test "$line"
    cmd_build "$line"
}

cmd_build() {
    cmd_overlay "${1:?usage: $0 build LINE}"
    cmd_packages "$1"
}

# The packages of LINE from its overlay (target/package/<line>/cks-state-overlay.jar and cloudstack-release).
cmd_packages() {
    local line="${1:?usage: $0 packages LINE}" version release out arch deb rpm platform
    version="$(library_version)"
    out="$OUT_ROOT/$line"
    # In a package version: a snapshot (4.23.0.0-SNAPSHOT) sorts before its release (4.23.0.0~SNAPSHOT).
    release="$(tr '-' '~' < "$out/cloudstack-release")"
    command -v dpkg-deb >/dev/null || die "dpkg-deb is missing"
    command -v rpmbuild >/dev/null || die "rpmbuild is missing (Debian's rpm package; make package installs it)"
    for arch in "${ARCHES[@]}"; do
        read -r deb rpm platform <<< "$arch"
        stage "$out/stage-$deb" "$platform" "$line" "$version"
        build_deb "$out" "$out/stage-$deb" "$deb" "$version" "$release"
        build_rpm "$out" "$out/stage-$deb" "$rpm" "$version" "$release"
        rm -rf "$out/stage-$deb"
    done
    log "$line: $(cd "$out" && ls ./*.deb ./*.rpm | tr '\n' ' ')"
}

cmd_deb() {
    local line="${1:?usage: $0 deb LINE}" version release out arch deb rpm platform host
    version="$(library_version)"
    out="$OUT_ROOT/$line"
    release="$(tr '-' '~' < "$out/cloudstack-release")"
    host="$(dpkg --print-architecture)"
    for arch in "${ARCHES[@]}"; do
        read -r deb rpm platform <<< "$arch"
        [ "$deb" = "$host" ] || continue
        stage "$out/stage-$deb" "$platform" "$line" "$version"
        build_deb "$out" "$out/stage-$deb" "$deb" "$version" "$release"
        rm -rf "$out/stage-$deb"
        echo "$out/cks-state_${version}+cs${release}_$deb.deb"
        return 0
    done
    die "no package is built for this machine's architecture, $host"
}

build_deb() {
    local out="$1" stage="$2" arch="$3" version="$4" release="$5" dir
    dir="$out/deb-$arch"
    rm -rf "$dir"
    cp -a "$stage" "$dir"
    install -d -m 0755 "$dir/DEBIAN"
    sed -e "s|@VERSION@|$version+cs$release|" -e "s|@ARCH@|$arch|" -e "s|@RELEASE@|$(cat "$out/cloudstack-release")|" \
        -e "s|@SIZE@|$(du -sk --exclude=DEBIAN "$dir" | cut -f1)|" "$ROOT/packaging/deb/control.in" | sed "/^#/d" > "$dir/DEBIAN/control"
    install -m 0755 "$ROOT/packaging/deb/postinst" "$ROOT/packaging/deb/postrm" "$dir/DEBIAN/"
    dpkg-deb --root-owner-group -Zxz --build "$dir" "$out/cks-state_${version}+cs${release}_$arch.deb" >/dev/null
    rm -rf "$dir"
}

build_rpm() {
    local out="$1" stage="$2" arch="$3" version="$4" release="$5" top
    top="$out/rpm-$arch"
    rm -rf "$top"
    mkdir -p "$top/SPECS" "$top/RPMS"
    sed -e "s|@VERSION@|$version|" -e "s|@RELEASE@|$release|" -e "s|@CLOUDSTACK@|$(cat "$out/cloudstack-release")|" \
        "$ROOT/packaging/rpm/cks-state.spec.in" > "$top/SPECS/cks-state.spec"
    if ! rpmbuild -bb --quiet --target "$arch" --define "_topdir $top" --define "stage $stage" \
            --define "_build_id_links none" --define "source_date_epoch_from_changelog 0" \
            "$top/SPECS/cks-state.spec" > "$top/rpmbuild.log" 2>&1; then
        cat "$top/rpmbuild.log" >&2
        die "rpmbuild failed for $arch"
    fi
    mv "$top/RPMS/$arch/"*.rpm "$out/"
    rm -rf "$top"
}

cmd_contents() {
    local file="${1:?usage: $0 contents FILE}"
    case "$file" in
        *.deb) dpkg-deb --fsys-tarfile "$file" | tar -t | sed 's|^\./|/|; s|/$||' | grep -v '^/\?$' ;;
        *.rpm) rpm -qlp "$file" ;;
        *) die "$file: not a .deb or an .rpm" ;;
    esac
}

cmd_tools() {
    # rpmbuild for the .rpm files; bzip2 for Apache's source releases (release).
    command -v rpmbuild >/dev/null && command -v dpkg-deb >/dev/null && command -v bzip2 >/dev/null && return 0
    log "installing rpm (rpmbuild) and bzip2 from Debian's packages"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    "${sudo[@]}" apt-get update -q </dev/null >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q rpm bzip2 </dev/null >&2
    command -v rpmbuild >/dev/null || die "rpmbuild still missing after apt-get install rpm"
    command -v bzip2 >/dev/null || die "bzip2 still missing after apt-get install bzip2"
}

case "${1:-}" in
    tools) cmd_tools ;;
    overlay) shift; cmd_overlay "$@" ;;
    build) shift; cmd_build "$@" ;;
    packages) shift; cmd_packages "$@" ;;
    deb) shift; cmd_deb "$@" ;;
    release) shift; cmd_release "$@" ;;
    contents) shift; cmd_contents "$@" ;;
    *) die "usage: $0 overlay LINE | build LINE | packages LINE | deb LINE | release LINE TARBALL SHA512 | contents FILE | tools" ;;
esac
