# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/e2e-cloudstack.sh (its globals): the overlay run's package, unpacked into a root of each
# server's own, its start check run there as its systemd drop-in runs it, and its doctor.

# The package of this machine's architecture (scripts/package.sh overlay, then deb), from the patched build's
# modules: its classes, with the harness's changes to the plugin as the as-released build has them too.
OVERLAY="$OUT/package/$LINE"
overlay() {
    CKS_PACKAGE_OUT="$OUT/package" "$ROOT/scripts/package.sh" overlay "$LINE" >/dev/null
    CKS_PACKAGE_OUT="$OUT/package" "$ROOT/scripts/package.sh" deb "$LINE" > "$OVERLAY/deb"
}

# Server $1's root: the package unpacked as dpkg lays it out, beside stand-ins of what cloudstack-management
# installs (its jar's name for the version $2 is, its /etc/default file, its db.properties, its Java, its log
# folder); variant mismatch: the package says it was built for the line's next release. Then the package's
# start check, in the server's network namespace as systemd would run it there; the server starts as it decided.
start_check() {
    local n=$1 jar=$2 variant=$3 root version dir
    dir="$(server_dir "$n")"
    root="$dir/root"
    version="$(basename "$jar" .jar)"
    version="${version#cloud-client-ui-}"
    rm -rf "$root"
    install -d -m 0755 "$root"
    dpkg-deb -x "$(cat "$OVERLAY/deb")" "$root"
    install -d -m 0755 "$root/usr/share/cloudstack-management/lib" "$root/etc/default" "$root/etc/cloudstack/management" \
        "$root/run" "$root/var/log/cloudstack"
    : > "$root/usr/share/cloudstack-management/lib/cloudstack-$version.jar"
    install -m 0644 "$SRC/packaging/systemd/cloudstack-management.default" "$root/etc/default/cloudstack-management"
    install -m 0640 "$dir/conf/db.properties" "$root/etc/cloudstack/management/db.properties"
    ln -s "$(readlink -f "$(command -v java)")" "$root/usr/bin/java"
    ln -s "$dir/log" "$root/var/log/cloudstack/management"
    [ "$variant" != mismatch ] || line_field "$LINE" release > "$root/usr/share/cks-state/cloudstack-release"
    # The server runs as root here: the alert's tool runs as its account.
    CKS_STATE_SERVER_USER=root ip netns exec "${NS}ms$n" "$root/usr/share/cks-state/bin/cks-state-start" "$root" \
        2> "$dir/log/start-check.log"
}

# overlay doctor N [java11|noexec]: the package's doctor on server N's root, in its namespace, for the account
# the server runs as (root here); java11: with a Java 11 in the place of /usr/bin/java; noexec: /tmp and /var/tmp
# mounted noexec and the server's home group-writable (Debian's cloud home), which matter where the server has
# no library path (a server started stock). Its output and exit code.
overlay_doctor() {
    local n=$1 fault=${2:-} root rc=0 wrap=()
    root="$(server_dir "$n")/root"
    if [ "$fault" = java11 ]; then
        mv "$root/usr/bin/java" "$root/usr/bin/java.real"
        printf '#!/bin/sh\necho '"'"'openjdk version "11.0.21" 2023-10-17'"'"' >&2\n' > "$root/usr/bin/java"
        chmod 0755 "$root/usr/bin/java"
    elif [ "$fault" = noexec ]; then
        install -d -m 0770 "$root/var/lib/cloudstack/management"
        sed -i "s|^JAVA_OPTS=\"|JAVA_OPTS=\"-Duser.home=$root/var/lib/cloudstack/management |" "$root/etc/default/cloudstack-management"
        wrap=(unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs -o noexec,mode=1777 tmpfs /tmp &&
            mount -t tmpfs -o noexec,mode=1777 tmpfs /var/tmp && exec "$@"' sh)
    fi
    ip netns exec "${NS}ms$n" "${wrap[@]}" "$root/usr/share/cks-state/bin/cks-state-doctor" --root "$root" --user root || rc=$?
    [ "$fault" != java11 ] || mv -f "$root/usr/bin/java.real" "$root/usr/bin/java"
    return $rc
}
