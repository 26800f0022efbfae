#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# The operator's package, tested (make package-test, after scripts/package.sh build LINE):
#   1. the start check (packaging/bin/cks-state-start) on a scratch root: the overlay for the
#      installed release, stock for another release, for a file someone else may write, for a
#      missing setting; a stale class path never survives; it always exits 0;
#   2. each .deb with dpkg and each .rpm with rpm on scratch roots, beside a stand-in of
#      cloudstack-management built from the release's own packaging files (its unit, its
#      /etc/default file, its jar's name): install, start check, upgrade to a build for the next
#      release of the line with CloudStack still on the old one (stock, named), CloudStack upgraded
#      (the overlay again), removal (nothing of cks-state left);
#   3. what each package installs: on the server's class path only the overlay (classes of the
#      modules the series patches, no other module's, no third party's) and the library;
#   4. cks-state doctor (scripts/package-doctor-test.sh); 5. the alert a stock start raises in
#      CloudStack's database (scripts/package-alert-test.sh); 6. scripts/package.sh release's
#      checksum (scripts/package-release-test.sh).
# Runs as root (the start check trusts only root's files); needs dpkg-deb, dpkg and rpm.
#
#   scripts/package-test.sh LINE
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
LINE="${1:?usage: $0 LINE}"
OUT="${CKS_PACKAGE_OUT:-$ROOT/target/package}/$LINE"
SRC="${CKS_CLOUDSTACK_WORK:-$ROOT/target/cloudstack}/$LINE/src"
START="$ROOT/packaging/bin/cks-state-start"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FAILURES=0

log() { echo "package-test: $*" >&2; }
fail() { log "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
die() { log "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root: the start check trusts only files root owns"
RELEASE="$(cat "$OUT/cloudstack-release" 2>/dev/null)" || die "no $OUT/cloudstack-release: run scripts/package.sh build $LINE first"
# The next release of the line (lines.tsv's column), which a CloudStack upgrade brings.
NEXT="$(line_field "$LINE" release)"
[ "$NEXT" != "$RELEASE" ] || NEXT="${RELEASE%.*}.$(( ${RELEASE##*.} + 1 ))"
# In package names a snapshot's "-" is "~" (scripts/package.sh).
tilde() { printf '%s' "$1" | tr '-' '~'; }
VERSION="$(library_version)" || exit 1

# ---- 1. the start check --------------------------------------------------------------------------

# A scratch root with cloudstack-management $1's files (the release's own unit and defaults) and
# cks-state's, as the package installs them.
scratch_root() {
    local r="$1" installed="$2"
    rm -rf "$r"
    install -d -m 0755 "$r/usr/share/cloudstack-management/lib" "$r/etc/default" "$r/run"
    printf 'PK\005\006%018d' 0 | head -c 22 > "$r/usr/share/cloudstack-management/lib/cloudstack-$installed.jar"
    tar -xzf "$(line_tarball "$LINE")" -O --wildcards '*/packaging/systemd/cloudstack-management.default' \
        > "$r/etc/default/cloudstack-management"
    dpkg-deb --fsys-tarfile "$OUT/cks-state_${VERSION}+cs$(tilde "$RELEASE")_amd64.deb" | tar -x -C "$r"
}

expect_status() {
    local r="$1" pattern="$2" what="$3" status
    status="$(cat "$r/run/cks-state/status" 2>/dev/null || echo "(no status)")"
    case "$status" in
        $pattern) log "ok: $what: $status" ;;
        *) fail "$what: status '$status', expected '$pattern'" ;;
    esac
}

start_check() {
    local r="$1" what="$2"
    if ! "$START" "$r" 2>"$TMP/start.err"; then
        fail "$what: cks-state-start exited non-zero (it must never stop the server's start)"
    fi
}

test_start_check() {
    local r="$TMP/start" env stock_cp
    scratch_root "$r" "$RELEASE"
    start_check "$r" "matching release"
    expect_status "$r" "overlay: CloudStack $RELEASE with cks-state $VERSION first on its class path" "matching release"
    env="$r/run/cks-state/cloudstack-management.env"
    stock_cp="$(env -i sh -c '. "$1"; printf %s "$CLASSPATH"' sh "$r/etc/default/cloudstack-management")"
    grep -qxF "CLASSPATH=\"/usr/share/cks-state/lib/cks-state-overlay.jar:/usr/share/cks-state/lib/cks-state.jar:$stock_cp\"" "$env" \
        || fail "matching release: the class path is not overlay, library, then CloudStack's own: $(cat "$env" 2>/dev/null)"
    grep -q '^JAVA_OPTS=".*-Djava.security.properties=.* -Dcks.state.library.path=/usr/lib/cks-state/libcks_state.so"$' "$env" \
        || fail "matching release: JAVA_OPTS lost CloudStack's options or the library's path: $(grep JAVA_OPTS "$env" 2>/dev/null)"

    # The installed release moves on (the overlay from the last start must not survive).
    mv "$r/usr/share/cloudstack-management/lib/cloudstack-$RELEASE.jar" "$r/usr/share/cloudstack-management/lib/cloudstack-$NEXT.jar"
    start_check "$r" "another release"
    expect_status "$r" "stock: *built for CloudStack $RELEASE and CloudStack $NEXT is installed*" "another release"
    [ ! -e "$env" ] || fail "another release: the class path of the last start survived"
    grep -q "CloudStack $NEXT is installed" "$TMP/start.err" || fail "another release: nothing said to the journal"
    mv "$r/usr/share/cloudstack-management/lib/cloudstack-$NEXT.jar" "$r/usr/share/cloudstack-management/lib/cloudstack-$RELEASE.jar"

    chmod g+w "$r/usr/share/cks-state/lib/cks-state-overlay.jar"
    start_check "$r" "overlay writable by its group"
    expect_status "$r" "stock: */usr/share/cks-state/lib/cks-state-overlay.jar is writable by group or others*" "overlay writable by its group"
    chmod g-w "$r/usr/share/cks-state/lib/cks-state-overlay.jar"
    chmod o+w "$r/usr/lib/cks-state"
    start_check "$r" "library folder writable by others"
    expect_status "$r" "stock: */usr/lib/cks-state is writable by group or others*" "library folder writable by others"
    chmod o-w "$r/usr/lib/cks-state"
    chown 1 "$r/usr/share/cks-state/lib/cks-state.jar"
    start_check "$r" "library jar of another user"
    expect_status "$r" "stock: */usr/share/cks-state/lib/cks-state.jar belongs to uid 1, not root*" "library jar of another user"
    chown 0 "$r/usr/share/cks-state/lib/cks-state.jar"

    cp "$r/usr/share/cloudstack-management/lib/cloudstack-$RELEASE.jar" "$r/usr/share/cloudstack-management/lib/cloudstack-$NEXT.jar"
    start_check "$r" "two CloudStack jars"
    expect_status "$r" "stock: *expected one */cloudstack-<version>.jar (cloudstack-management's), found 2" "two CloudStack jars"
    rm "$r/usr/share/cloudstack-management/lib/cloudstack-$NEXT.jar"

    # Read, never run: the start check is root, the file is the server's.
    printf 'touch %s\n' "$r/ran-the-defaults-file" >> "$r/etc/default/cloudstack-management"
    start_check "$r" "a command in the defaults file"
    [ ! -e "$r/ran-the-defaults-file" ] && log "ok: the defaults file is read, not run" || fail "the start check ran the defaults file as root"
    sed -i 's/^CLASSPATH=.*/CLASSPATH="a\\b"/' "$r/etc/default/cloudstack-management"
    start_check "$r" "a backslash in CLASSPATH"
    expect_status "$r" "stock: *a quote, a backslash or a dollar sign*" "a backslash in CLASSPATH"
    rm "$r/etc/default/cloudstack-management"
    start_check "$r" "no defaults"
    expect_status "$r" "stock: */etc/default/cloudstack-management is missing" "no defaults"
    [ ! -e "$env" ] || fail "no defaults: a class path was written"
}

# ---- 2. dpkg and rpm on scratch roots ------------------------------------------------------------

# A stand-in cloudstack-management of version $2: the release's own unit and defaults, and a jar of
# the package's name (the start check reads only its name). $1: deb or rpm.
standin() {
    local kind="$1" version="$2" dir="$TMP/standin-$1-$2"
    rm -rf "$dir"
    install -d -m 0755 "$dir/usr/share/cloudstack-management/lib" "$dir/etc/default" "$dir/usr/lib/systemd/system"
    printf 'PK\005\006%018d' 0 | head -c 22 > "$dir/usr/share/cloudstack-management/lib/cloudstack-$version.jar"
    tar -xzf "$(line_tarball "$LINE")" -O --wildcards '*/packaging/systemd/cloudstack-management.default' > "$dir/etc/default/cloudstack-management"
    tar -xzf "$(line_tarball "$LINE")" -O --wildcards '*/packaging/systemd/cloudstack-management.service' > "$dir/usr/lib/systemd/system/cloudstack-management.service"
    if [ "$kind" = deb ]; then
        install -d "$dir/DEBIAN"
        printf 'Package: cloudstack-management\nVersion: %s\nArchitecture: all\nMaintainer: stand-in <none@example.org>\nDescription: stand-in of CloudStack %s for cks-state'"'"'s package tests\n' \
            "$(tilde "$version")" "$version" > "$dir/DEBIAN/control"
        dpkg-deb --root-owner-group --build "$dir" "$TMP/cloudstack-management_$version.deb" >/dev/null
    else
        mkdir -p "$TMP/rpm-standin/SPECS"
        cat > "$TMP/rpm-standin/SPECS/standin.spec" <<EOF
%global debug_package %{nil}
%global __os_install_post %{nil}
Name: cloudstack-management
Version: $(tilde "$version")
Release: 1
Summary: stand-in of CloudStack $version for cks-state's package tests
License: Apache-2.0
BuildArch: noarch
AutoReqProv: no
%description
stand-in
%install
cp -a $dir/. %{buildroot}/
%files
/usr/share/cloudstack-management/lib/cloudstack-$version.jar
%config(noreplace) /etc/default/cloudstack-management
/usr/lib/systemd/system/cloudstack-management.service
EOF
        rpmbuild -bb --quiet --define "_topdir $TMP/rpm-standin" "$TMP/rpm-standin/SPECS/standin.spec" >/dev/null 2>&1 \
            || die "the stand-in rpm did not build"
        mv "$TMP/rpm-standin/RPMS/noarch/"*.rpm "$TMP/cloudstack-management-$version.rpm"
    fi
}

# The files of cks-state under root $1 (none after a removal).
leftovers() {
    find "$1/usr/share/cks-state" "$1/usr/lib/cks-state" "$1/usr/bin/cks-state" "$1/run/cks-state" \
        "$1/usr/lib/systemd/system/cloudstack-management.service.d" 2>/dev/null || true
}

test_dpkg() {
    local r="$TMP/dpkg" next_deb dpkg_cmd
    rm -rf "$r" && install -d "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates" "$r/var/lib/dpkg/triggers" "$r/run"
    touch "$r/var/lib/dpkg/status" "$r/var/lib/dpkg/available"
    dpkg_cmd=(dpkg --root="$r" --force-script-chrootless --log=/dev/null)
    standin deb "$RELEASE"
    standin deb "$NEXT"
    "${dpkg_cmd[@]}" -i "$OUT/cks-state_${VERSION}+cs$(tilde "$RELEASE")_amd64.deb" >/dev/null 2>&1 \
        && fail "dpkg: cks-state installed without cloudstack-management" || log "ok: dpkg: refused without cloudstack-management"
    "${dpkg_cmd[@]}" --purge cks-state >/dev/null 2>&1 || true
    "${dpkg_cmd[@]}" -i "$TMP/cloudstack-management_$RELEASE.deb" >/dev/null
    "${dpkg_cmd[@]}" -i "$OUT/cks-state_${VERSION}+cs$(tilde "$RELEASE")_amd64.deb" > "$TMP/dpkg.out" 2>&1 || { cat "$TMP/dpkg.out" >&2; fail "dpkg: install failed"; return; }
    grep -q "restart cloudstack-management" "$TMP/dpkg.out" || fail "dpkg: the install does not say to restart the server"
    check_installed "$r" "dpkg install"
    test_command "$r"
    start_check "$r" "dpkg install"
    expect_status "$r" "overlay: CloudStack $RELEASE *" "dpkg install"

    # cks-state built for the next release, CloudStack not yet upgraded: stock, named.
    next_deb="$(build_for_next)"
    "${dpkg_cmd[@]}" -i "$next_deb" >/dev/null || { fail "dpkg: upgrade of cks-state failed"; return; }
    start_check "$r" "dpkg upgrade before CloudStack's"
    expect_status "$r" "stock: *built for CloudStack $NEXT and CloudStack $RELEASE is installed*" "dpkg upgrade before CloudStack's"
    "${dpkg_cmd[@]}" -i "$TMP/cloudstack-management_$NEXT.deb" >/dev/null
    start_check "$r" "dpkg CloudStack upgraded"
    expect_status "$r" "overlay: CloudStack $NEXT *" "dpkg CloudStack upgraded"

    "${dpkg_cmd[@]}" --remove cks-state >/dev/null || fail "dpkg: removal failed"
    [ -z "$(leftovers "$r")" ] || fail "dpkg: left after removal: $(leftovers "$r" | tr '\n' ' ')"
    [ -f "$r/usr/lib/systemd/system/cloudstack-management.service" ] || fail "dpkg: the removal took CloudStack's unit"
    log "ok: dpkg: install, upgrade (cks-state, then CloudStack), removal"
}

test_rpm() {
    local r="$TMP/rpm" next_rpm rpm_cmd
    rm -rf "$r" && install -d "$r/run"
    rpm --root "$r" --dbpath /var/lib/rpm --initdb
    # Debian's rpm asks for --force-debian to install on a Debian host (here: into the scratch root).
    rpm_cmd=(rpm --root "$r" --dbpath /var/lib/rpm --force-debian)
    standin rpm "$RELEASE"
    standin rpm "$NEXT"
    "${rpm_cmd[@]}" -i "$OUT/cks-state-${VERSION}-cs$(tilde "$RELEASE").x86_64.rpm" >/dev/null 2>&1 \
        && fail "rpm: cks-state installed without cloudstack-management" || log "ok: rpm: refused without cloudstack-management"
    "${rpm_cmd[@]}" -i "$TMP/cloudstack-management-$RELEASE.rpm"
    "${rpm_cmd[@]}" -i "$OUT/cks-state-${VERSION}-cs$(tilde "$RELEASE").x86_64.rpm" > "$TMP/rpm.out" 2>&1 || { cat "$TMP/rpm.out" >&2; fail "rpm: install failed"; return; }
    grep -q "restart cloudstack-management" "$TMP/rpm.out" || fail "rpm: the install does not say to restart the server"
    check_installed "$r" "rpm install"
    start_check "$r" "rpm install"
    expect_status "$r" "overlay: CloudStack $RELEASE *" "rpm install"

    next_rpm="$(build_for_next rpm)"
    "${rpm_cmd[@]}" -U "$next_rpm" >/dev/null 2>&1 || { fail "rpm: upgrade of cks-state failed"; return; }
    start_check "$r" "rpm upgrade before CloudStack's"
    expect_status "$r" "stock: *built for CloudStack $NEXT and CloudStack $RELEASE is installed*" "rpm upgrade before CloudStack's"
    "${rpm_cmd[@]}" -U "$TMP/cloudstack-management-$NEXT.rpm"
    start_check "$r" "rpm CloudStack upgraded"
    expect_status "$r" "overlay: CloudStack $NEXT *" "rpm CloudStack upgraded"

    rpm --root "$r" --dbpath /var/lib/rpm -e cks-state >/dev/null 2>&1 || fail "rpm: removal failed"
    [ -z "$(leftovers "$r")" ] || fail "rpm: left after removal: $(leftovers "$r" | tr '\n' ' ')"
    [ -f "$r/usr/lib/systemd/system/cloudstack-management.service" ] || fail "rpm: the removal took CloudStack's unit"
    log "ok: rpm: install, upgrade (cks-state, then CloudStack), removal"
}

# The same build made for the next release of the line (only its release file differs: what an
# upgrade of cks-state brings before CloudStack's own upgrade). Prints the package's path.
build_for_next() {
    local kind="${1:-deb}" out="$TMP/next"
    rm -rf "$out" && mkdir -p "$out/$LINE"
    cp "$OUT/cks-state-overlay.jar" "$out/$LINE/"
    printf '%s\n' "$NEXT" > "$out/$LINE/cloudstack-release"
    CKS_PACKAGE_OUT="$out" "$ROOT/scripts/package.sh" packages "$LINE" >/dev/null 2>&1 || die "the build for $NEXT failed"
    if [ "$kind" = deb ]; then
        echo "$out/$LINE/cks-state_${VERSION}+cs$(tilde "$NEXT")_amd64.deb"
    else
        echo "$out/$LINE/cks-state-${VERSION}-cs$(tilde "$NEXT").x86_64.rpm"
    fi
}

check_installed() {
    local r="$1" what="$2" f bad
    for f in /usr/share/cks-state/lib/cks-state-overlay.jar /usr/share/cks-state/lib/cks-state.jar \
            /usr/lib/cks-state/libcks_state.so /usr/bin/cks-state /usr/share/cks-state/bin/cks-state-start \
            /usr/lib/systemd/system/cloudstack-management.service.d/cks-state.conf; do
        [ -f "$r$f" ] || fail "$what: $f is not installed"
    done
    bad="$(find "$r/usr/share/cks-state" "$r/usr/lib/cks-state" "$r/usr/bin/cks-state" \
        "$r/usr/lib/systemd/system/cloudstack-management.service.d" \( ! -uid 0 -o -perm /022 \) 2>/dev/null)"
    [ -z "$bad" ] || fail "$what: not root's, or writable by others: $bad"
}

# The installed cks-state command (its paths moved under root $1) answers, with the package's native
# library loaded in place: no temp folder it could extract to exists.
test_command() {
    local r="$1" out
    sed "s|/usr/|$r/usr/|g" "$r/usr/bin/cks-state" > "$TMP/cks-state"
    if out="$(JAVA_TOOL_OPTIONS="-Djava.io.tmpdir=$TMP/no-such-folder" sh "$TMP/cks-state" --version 2>&1)" \
            && grep -qF "cks-state $VERSION (native ABI" <<< "$out" \
            && grep -qF ", from $r/usr/lib/cks-state/libcks_state.so)" <<< "$out" \
            && grep -q '^Operation' <<< "$(sh "$TMP/cks-state" rules 2>/dev/null | sed -n 1p)"; then
        log "ok: the cks-state command: $(printf '%s\n' "$out" | grep '^cks-state')"
    else
        fail "the cks-state command did not answer with the package's library: $out"
    fi
}

# ---- 3. what the packages install ----------------------------------------------------------------

test_contents() {
    local pkg classes path
    # Every class of the overlay is one the patched modules compiled, and nothing else is in it.
    unzip -Z1 "$OUT/cks-state-overlay.jar" | grep -v '^META-INF/\(MANIFEST.MF\)\?$' | sort > "$TMP/overlay.list"
    for m in framework/cluster framework/jobs plugins/integrations/kubernetes-service; do
        (cd "$SRC/$m/target/classes" && find . -name '*.class' | sed 's|^\./||')
    done | sort > "$TMP/modules.list"
    diff -q "$TMP/overlay.list" "$TMP/modules.list" >/dev/null \
        || fail "the overlay is not exactly the patched modules' classes: $(diff "$TMP/overlay.list" "$TMP/modules.list" | head -5 | tr '\n' ' ')"
    classes="$(grep -c . "$TMP/overlay.list")"
    grep -q "^CloudStack-Release: $RELEASE" <<< "$(unzip -p "$OUT/cks-state-overlay.jar" META-INF/MANIFEST.MF)" \
        || fail "the overlay's manifest does not name CloudStack $RELEASE"
    # What a package may install: nothing but these (and the folders above them).
    printf '%s\n' /usr/share/cks-state/lib/cks-state-overlay.jar /usr/share/cks-state/lib/cks-state.jar \
        /usr/share/cks-state/cli/cks-state-cli.jar /usr/share/cks-state/bin/cks-state-start \
        /usr/share/cks-state/bin/cks-state-doctor /usr/share/cks-state/bin/cks-state-checks.sh \
        /usr/share/cks-state/cloudstack-release /usr/share/cks-state/version /usr/lib/cks-state/libcks_state.so \
        /usr/bin/cks-state /usr/lib/systemd/system/cloudstack-management.service.d/cks-state.conf | sort > "$TMP/allowed.files"
    while read -r path; do
        while [ "$path" != /usr ]; do path="${path%/*}"; echo "$path"; done
    done < "$TMP/allowed.files" | sort -u > "$TMP/allowed.dirs"
    for pkg in "$OUT"/*.deb "$OUT"/*.rpm; do
        "$ROOT/scripts/package.sh" contents "$pkg" | sort -u > "$TMP/contents"
        comm -23 "$TMP/contents" <(sort -u "$TMP/allowed.files" "$TMP/allowed.dirs") > "$TMP/extra"
        [ ! -s "$TMP/extra" ] || fail "$(basename "$pkg") installs what it should not: $(tr '\n' ' ' < "$TMP/extra")"
        comm -13 "$TMP/contents" "$TMP/allowed.files" > "$TMP/missing"
        [ ! -s "$TMP/missing" ] || fail "$(basename "$pkg") lacks $(tr '\n' ' ' < "$TMP/missing")"
    done
    # The library jar carries cks-state's classes only (scripts/check-artifacts.sh checks it too).
    if grep '\.class$' <<< "$(unzip -Z1 "$ROOT/java/library/target/cks-state-$VERSION.jar")" | grep -v '^org/apache/cloudstack/kubernetes/state/' >/dev/null; then
        fail "the library jar holds classes that are not cks-state's"
    fi
    log "ok: contents: the server's class path gets the overlay ($classes classes of the 3 patched modules) and the library; the cks-state command's jar is apart (/usr/share/cks-state/cli, never on the server's class path)"
}

# ---- 4. cks-state doctor: scripts/package-doctor-test.sh
# shellcheck source=package-doctor-test.sh
source "$ROOT/scripts/package-doctor-test.sh"

# ---- 5. the alert of a stock start: scripts/package-alert-test.sh
# shellcheck source=package-alert-test.sh
source "$ROOT/scripts/package-alert-test.sh"

# ---- 6. a release's own source, refused unless its checksum vouches for it: scripts/package-release-test.sh
# shellcheck source=package-release-test.sh
source "$ROOT/scripts/package-release-test.sh"

test_start_check
test_alert
test_release_source
test_dpkg
test_rpm
test_contents
test_doctor
if [ "$FAILURES" -ne 0 ]; then
    die "$FAILURES failure(s)"
fi
log "$LINE: all passed"
