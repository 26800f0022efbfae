# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# cks-state doctor's tests, sourced by scripts/package-test.sh (its helpers and settings): all well on a
# scratch root (exit 0, the library loaded in place as the server's account, the bind line found in a
# rotated log), then the faults it must name, each in one line with exit 1: Java 11, a package built for
# another release (and a bind line older than the last start), noexec temp folders with a group-writable
# home (in a mount namespace of its own).

# The doctor on a scratch root outside /tmp (its faults mount over /tmp), run as root for the server's
# account (nobody here); prints its output, returns its exit code.
doctor() {
    local r="$1"
    shift
    "$r/usr/share/cks-state/bin/cks-state-doctor" --root "$r" --user nobody "$@"
}

expect_line() {
    local out="$1" text="$2" what="$3"
    grep -qF -- "$text" <<< "$out" && log "ok: doctor, $what" || fail "doctor, $what: no line '$text' in: $out"
}

test_doctor() {
    local r out rc java_real
    # Outside /tmp (the faults mount over it) and outside the clone (its folder may be 0700: nobody must
    # reach the root), on a file system that allows exec.
    r="$(mktemp -d -p /var/lib cks-state-package-doctor.XXXXXX)"
    chmod 0755 "$r"
    scratch_root "$r" "$RELEASE"
    install -d -m 0755 "$r/usr/bin" "$r/var/log/cloudstack/management"
    java_real="$(readlink -f "$(command -v java)")"
    ln -s "$java_real" "$r/usr/bin/java"
    "$r/usr/share/cks-state/bin/cks-state-start" "$r" 2>/dev/null
    # The bind line in a rotated file only, after an older refusal.
    # (as the server logs it, after its start check: one second later)
    printf '%s\n' "2026-12-01 09:00:00,001 ERROR [c.c.k.c.d.KubernetesClusterDaoImpl] (main:null) (logid:) Kubernetes Service: Kubernetes clusters cannot be changed on this management server, which starts without their states: noexec" \
        "$(date -d '+1 second' '+%Y-%m-%d %H:%M:%S'),000 INFO  [c.c.k.c.d.KubernetesClusterDaoImpl] (main:null) (logid:) Kubernetes cluster states: cks-state $VERSION (native ABI 13, linux-x86_64), profile 4.20.2, mode compat, msid 1" \
        | gzip > "$r/var/log/cloudstack/management/management-server.log.2026-12-02.gz"
    : > "$r/var/log/cloudstack/management/management-server.log"

    out="$(doctor "$r" 2>&1)" && rc=0 || rc=$?
    if [ "$rc" = 0 ] && ! grep -q '^problem:' <<< "$out"; then
        log "ok: doctor, all well: exit 0, $(printf '%s\n' "$out" | grep -c '^ok:') checks ok"
    else
        fail "doctor, all well: exit $rc: $out"
    fi
    expect_line "$out" "ok: as nobody with the server's options: cks-state $VERSION (native ABI" "the library loads in place as the server's account"
    expect_line "$out" ", from $r/usr/lib/cks-state/libcks_state.so)" "from the package's file"
    expect_line "$out" "ok: the server bound cks-state: cks-state $VERSION" "the bind line from a rotated log"

    # Java 11 and an overlay for another release.
    mv "$r/usr/share/cloudstack-management/lib/cloudstack-$RELEASE.jar" "$r/usr/share/cloudstack-management/lib/cloudstack-$NEXT.jar"
    "$r/usr/share/cks-state/bin/cks-state-start" "$r" 2>/dev/null
    touch -d '+1 minute' "$r/run/cks-state/status" # a start after the bind line above
    rm "$r/usr/bin/java"
    printf '#!/bin/sh\necho '"'"'openjdk version "11.0.21" 2023-10-17'"'"' >&2\n' > "$r/usr/bin/java"
    chmod 0755 "$r/usr/bin/java"
    out="$(doctor "$r" 2>&1)" && rc=0 || rc=$?
    printf '%s\n' "$out" | sed 's/^/  doctor (Java 11, another release): /' >&2
    [ "$rc" = 1 ] || fail "doctor, Java 11 and another release: exit $rc, expected 1"
    expect_line "$out" "problem: java: /usr/bin/java is Java 11.0.21, and cks-state needs 17 or later" "Java 11 named"
    expect_line "$out" "problem: cks-state's overlay is built for CloudStack $RELEASE and CloudStack $NEXT is installed" "another release named"
    expect_line "$out" "problem: no line of cks-state's binding since the server's last start" "a bind line older than the last start not taken"

    # A noexec /tmp and /var/tmp and a group-writable home (Debian's cloud home: root:cloud 0770),
    # with CloudStack's own options (the overlay is still for another release: no library path).
    rm "$r/usr/bin/java" && ln -s "$java_real" "$r/usr/bin/java"
    install -d -m 0770 -g "$(id -gn nobody)" "$r/var/lib/cloudstack/management"
    sed -i "s|^JAVA_OPTS=\"|JAVA_OPTS=\"-Duser.home=$r/var/lib/cloudstack/management |" "$r/etc/default/cloudstack-management"
    out="$(unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs -o noexec,mode=1777 tmpfs /tmp \
        && mount -t tmpfs -o noexec,mode=1777 tmpfs /var/tmp && exec "$@"' sh \
        "$r/usr/share/cks-state/bin/cks-state-doctor" --root "$r" --user nobody 2>&1)" && rc=0 || rc=$?
    printf '%s\n' "$out" | sed 's/^/  doctor (noexec, group-writable home): /' >&2
    [ "$rc" = 1 ] || fail "doctor, noexec temp folders and a group-writable home: exit $rc, expected 1"
    expect_line "$out" "the library could not be extracted and loaded" "an extraction that cannot work named"
    expect_line "$out" "noexec" "the noexec mount named"
    expect_line "$out" "$r/var/lib/cloudstack/management" "the group-writable home named"
    rm -rf "$r"
}

