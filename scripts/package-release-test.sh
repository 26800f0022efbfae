# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# scripts/package.sh release refuses a source its checksum does not vouch for, before it extracts or
# builds anything (sourced by scripts/package-test.sh: its helpers and settings). The build itself, from a
# release's own tarball, is make package-release-test (scripts/package-release-build-test.sh).

refused() {
    local what="$1" expected="$2" out rc=0 name
    shift 2
    name="$(basename "$2")"
    name="${name%%.tar*}"
    out="$("$ROOT/scripts/package.sh" release "$@" 2>&1)" || rc=$?
    if [ "$rc" -ne 0 ] && grep -qF -- "$expected" <<< "$out" && [ ! -e "$ROOT/target/cloudstack-release/$name" ]; then
        log "ok: release source, $what: refused, nothing extracted: $(printf '%s\n' "$out" | grep -F -- "$expected" | head -n 1)"
    else
        fail "release source, $what: exit $rc, expected '$expected' and no target/cloudstack-release/$name: $out"
    fi
}

test_release_source() {
    local tarball sum
    tarball="$(line_tarball "$LINE")"
    sum="$(sha512sum "$tarball" | cut -d' ' -f1)"
    rm -rf "$ROOT/target/cloudstack-release/$(basename "${tarball%%.tar*}")"
    printf '%s  %s\n' "$(printf '%s' "$sum" | tr '0-9a-f' '1-9a-f0')" "$(basename "$tarball")" > "$TMP/wrong.sha512"
    refused "a wrong SHA-512" "its SHA-512 is $sum, and the checksum given says" "$LINE" "$tarball" "$TMP/wrong.sha512"
    printf '%s  %s\n' "$sum" "apache-cloudstack-4.20.3.0-src.tar.bz2" > "$TMP/other.sha512"
    refused "the SHA-512 of another file" "is the SHA-512 of apache-cloudstack-4.20.3.0-src.tar.bz2, not of $(basename "$tarball")" \
        "$LINE" "$tarball" "$TMP/other.sha512"
    echo "not a checksum" > "$TMP/none.sha512"
    refused "no SHA-512 in the file" "no SHA-512 in it" "$LINE" "$tarball" "$TMP/none.sha512"
    refused "no checksum given" "usage:" "$LINE" "$tarball"
    # gpg --print-md's layout (older Apache releases): the name, then the hex in groups, over lines.
    printf '%s: %s\n' "$(basename "$tarball")" "$(printf '%s' "$sum" | tr 'a-f' 'A-F' | sed 's/.\{8\}/& /g; s/.\{45\}/&\n/')" > "$TMP/gpg.sha512"
    # A SHA512SUMS of several files, written on Windows (CRLF): the tarball's own line.
    printf '%s  other.tar.gz\r\n%s *%s\r\n' "$(printf '%0128d' 7)" "$sum" "$(basename "$tarball")" > "$TMP/sums.sha512"
    local layout
    for layout in gpg sums; do
        if (export CKS_CLOUDSTACK_SOURCE="$tarball" CKS_CLOUDSTACK_SOURCE_SHA512="$TMP/$layout.sha512"; source_sha512_checked); then
            log "ok: release source: a SHA-512 file in the $layout layout is read"
        else
            fail "release source: the SHA-512 file in the $layout layout was not read: $(cat -A "$TMP/$layout.sha512")"
        fi
    done
}
