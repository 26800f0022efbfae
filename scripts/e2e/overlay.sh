# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/e2e-cloudstack.sh (its globals): the overlay run's package files, and the package's
# start check run for each of its servers.

# The package's server-side files for the overlay run, from the patched build's modules (scripts/package.sh
# overlay: its classes, with the harness's changes to the plugin as the as-released build has them too).
OVERLAY="$OUT/package/$LINE"
overlay() {
    local version
    CKS_PACKAGE_OUT="$OUT/package" "$ROOT/scripts/package.sh" overlay "$LINE" >/dev/null
    version="$(library_version)"
    install -m 0644 "$ROOT/java/library/target/cks-state-$version.jar" "$OVERLAY/cks-state.jar"
    unzip -p "$OVERLAY/cks-state.jar" native/linux-x86_64/libcks_state.so > "$OVERLAY/libcks_state.so"
    chmod 0644 "$OVERLAY/libcks_state.so"
}

# The package's start check (packaging/bin/cks-state-start, as its systemd drop-in runs it) on a root of server
# $1's own, laid out as the packages lay out a management server: CloudStack's jar under its package's name
# for the version $2 is, CloudStack's own /etc/default file, and the package's files; variant mismatch: the
# overlay says it was built for the line's next release. The server then starts as the check decided.
start_check() {
    local n=$1 jar=$2 variant=$3 root version
    root="$(server_dir "$n")/root"
    version="$(basename "$jar" .jar)"
    version="${version#cloud-client-ui-}"
    rm -rf "$root"
    install -d -m 0755 "$root/usr/share/cloudstack-management/lib" "$root/etc/default" "$root/usr/share/cks-state/lib" \
        "$root/usr/share/cks-state/bin" "$root/usr/lib/cks-state" "$root/run"
    : > "$root/usr/share/cloudstack-management/lib/cloudstack-$version.jar"
    install -m 0644 "$SRC/packaging/systemd/cloudstack-management.default" "$root/etc/default/cloudstack-management"
    install -m 0644 "$OVERLAY/cks-state-overlay.jar" "$OVERLAY/cks-state.jar" "$root/usr/share/cks-state/lib/"
    install -m 0644 "$OVERLAY/libcks_state.so" "$root/usr/lib/cks-state/"
    install -m 0755 "$ROOT/packaging/bin/cks-state-start" "$root/usr/share/cks-state/bin/"
    install -m 0644 "$ROOT/packaging/bin/cks-state-checks.sh" "$root/usr/share/cks-state/bin/"
    library_version > "$root/usr/share/cks-state/version"
    if [ "$variant" = mismatch ]; then
        line_field "$LINE" release > "$root/usr/share/cks-state/cloudstack-release"
    else
        cp "$OVERLAY/cloudstack-release" "$root/usr/share/cks-state/cloudstack-release"
    fi
    "$root/usr/share/cks-state/bin/cks-state-start" "$root" 2>/dev/null
}
