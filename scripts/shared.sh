# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts that read ../shared (CloudStack's sources, release files and lines): the one
# lookup of the shared folder, and the release lines of cloudstack/lines.tsv.
#
# The shared folder is CKS_SHARED_DIR when set, else ../shared beside this clone, else ../shared
# beside the repository this clone was cloned from, or the one that was cloned from (up to 5 origins:
# a clone made in a temp folder, of a clone).

# The shared folder, or one line naming what was looked for and the override.
shared_dir() {
    local origin
    if [ -n "${CKS_SHARED_DIR:-}" ]; then
        [ -d "$CKS_SHARED_DIR/cloudstack" ] && { echo "$CKS_SHARED_DIR"; return 0; }
        echo "shared.sh: CKS_SHARED_DIR=$CKS_SHARED_DIR has no cloudstack/ folder" >&2
        return 1
    fi
    if [ -d "$ROOT/../shared/cloudstack" ]; then
        (cd "$ROOT/../shared" && pwd)
        return 0
    fi
    # A clone of a clone (a temp folder's clone of a working copy): follow the origins, a few at most.
    local repo="$ROOT" tried="" hop
    for hop in 1 2 3 4 5; do
        origin="$(git -C "$repo" remote get-url origin 2>/dev/null)" && [ -d "$origin" ] || break
        if [ -d "$origin/../shared/cloudstack" ]; then
            (cd "$origin/../shared" && pwd)
            return 0
        fi
        tried="$tried${tried:+, }$origin/../shared"
        repo="$origin"
    done
    echo "shared.sh: no shared folder (cloudstack/ with CloudStack's sources) beside this clone ($ROOT/../shared)" \
        "nor beside its origins${tried:+ ($tried)}: set CKS_SHARED_DIR to the folder that holds cloudstack/" >&2
    return 1
}

# The release lines, one per output line, in the file's order.
lines() {
    awk -F'\t' '!/^#/ && NF { print $1 }' "$ROOT/cloudstack/lines.tsv"
}

# line_field LINE COLUMN: tarball, database or release of LINE; fails naming an unknown line.
line_field() {
    local column
    case "$2" in
        tarball) column=2 ;;
        database) column=3 ;;
        release) column=4 ;;
        *) echo "shared.sh: unknown column $2" >&2; return 1 ;;
    esac
    local value
    value="$(awk -F'\t' -v line="$1" -v c="$column" '!/^#/ && $1 == line { print $c }' "$ROOT/cloudstack/lines.tsv")"
    if [ -z "$value" ]; then
        echo "shared.sh: unknown CloudStack line '$1' (cloudstack/lines.tsv has: $(lines | tr '\n' ' '))" >&2
        return 1
    fi
    echo "$value"
}

# The source tarball of LINE, checked against SHA256SUMS beside it; prints its path. With
# CKS_CLOUDSTACK_SOURCE set (scripts/package.sh release), that tarball instead, checked first.
line_tarball() {
    local dir name path sums want got
    if [ -n "${CKS_CLOUDSTACK_SOURCE:-}" ]; then
        source_sha512_checked || return 1
        echo "$CKS_CLOUDSTACK_SOURCE"
        return 0
    fi
    dir="$(shared_dir)" || return 1
    name="$(line_field "$1" tarball)" || return 1
    path="$dir/cloudstack/$name"
    [ -f "$path" ] || { echo "shared.sh: no $name in $dir/cloudstack (line $1; set CKS_SHARED_DIR)" >&2; return 1; }
    echo "$path"
}

# A release's own source, CKS_CLOUDSTACK_SOURCE (Apache's apache-cloudstack-<version>-src.tar.bz2, or a git
# archive of the release's tag), checked by its SHA-512: CKS_CLOUDSTACK_SOURCE_SHA512 is the .sha512 file
# published beside it (sha512sum's "HEX  NAME", or gpg --print-md's "NAME: HEX HEX ...") or the hex itself.
source_sha512_checked() {
    local file="$CKS_CLOUDSTACK_SOURCE" given="${CKS_CLOUDSTACK_SOURCE_SHA512:-}" want named got content line
    [ -f "$file" ] || { echo "shared.sh: CKS_CLOUDSTACK_SOURCE: no file $file" >&2; return 1; }
    [ -n "$given" ] || { echo "shared.sh: $file: no SHA-512 to check it by (CKS_CLOUDSTACK_SOURCE_SHA512: the .sha512 file published beside it, or its hex)" >&2; return 1; }
    if [ -f "$given" ]; then
        content="$(tr -d '\r' < "$given")"
        if grep -qiE '^[0-9a-f]{128}[[:space:]]' <<< "$content"; then
            # sha512sum's layout, a file a line: the line of this file, else the first.
            line="$(printf '%s\n' "$content" | awk -v n="${file##*/}" '{ m = $2; sub(/^\*/, "", m); sub(/.*\//, "", m) }
                m == n { print; exit }')"
            [ -n "$line" ] || line="$(printf '%s\n' "$content" | head -n 1)"
            want="$(printf '%s\n' "$line" | awk '{ print tolower($1) }')"
            named="$(printf '%s\n' "$line" | awk '{ sub(/^\*/, "", $2); print $2 }')"
        else
            want="$(printf '%s\n' "$content" | sed 's/^[^:]*://' | tr -d ' \t\n' | tr 'A-F' 'a-f')"
            named="$(printf '%s\n' "$content" | sed -n '1s/:.*//p')"
        fi
        if [ -n "$named" ] && [ "${named##*/}" != "${file##*/}" ]; then
            echo "shared.sh: $given is the SHA-512 of ${named##*/}, not of ${file##*/}" >&2
            return 1
        fi
    else
        want="$(printf '%s' "$given" | tr 'A-F' 'a-f')"
    fi
    grep -qxE '[0-9a-f]{128}' <<< "$want" || { echo "shared.sh: ${CKS_CLOUDSTACK_SOURCE_SHA512}: no SHA-512 in it" >&2; return 1; }
    got="$(sha512sum < "$file" | cut -d' ' -f1)"
    [ "$want" = "$got" ] || { echo "shared.sh: ${file##*/}: its SHA-512 is $got, and the checksum given says $want: not the release's source, or damaged" >&2; return 1; }
}

# The sha256 of a tarball, checked against the SHA256SUMS beside it (a release's own source: by its SHA-512).
tarball_sha256() {
    local sums name want got
    if [ -n "${CKS_CLOUDSTACK_SOURCE:-}" ] && [ "$1" = "$CKS_CLOUDSTACK_SOURCE" ]; then
        source_sha512_checked || return 1
        sha256sum "$1" | cut -d' ' -f1
        return 0
    fi
    sums="$(dirname "$1")/SHA256SUMS"
    name="$(basename "$1")"
    [ -f "$sums" ] || { echo "shared.sh: no SHA256SUMS beside $1" >&2; return 1; }
    want="$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$sums")"
    [ -n "$want" ] || { echo "shared.sh: $sums has no line for $name" >&2; return 1; }
    got="$(sha256sum "$1" | cut -d' ' -f1)"
    [ "$want" = "$got" ] || { echo "shared.sh: $name: sha256 $got, SHA256SUMS says $want" >&2; return 1; }
    echo "$got"
}

# Run, not sourced: print the shared folder (the Makefile passes it to the Java tests).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    shared_dir
fi

# The local Maven repository Maven itself uses (settings, MAVEN_OPTS; its default is Java's user.home, which is
# not $HOME), else M2_REPO, else $HOME's.
m2_repo() {
    local repo
    repo="$(cd "$ROOT/java" && ${MVN:-mvn -B -ntp} -q -Dstyle.color=never help:evaluate -Dexpression=settings.localRepository -DforceStdout 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | tail -1 || true)"
    [ -n "$repo" ] || repo="${M2_REPO:-${HOME:-/root}/.m2/repository}"
    echo "$repo"
}

# The version of the source's root pom (its <version> after the parent's).
source_version() {
    python3 - "$1/pom.xml" <<'PY'
import re, sys
pom = re.sub(r"<parent>.*?</parent>", "", open(sys.argv[1]).read(), count=1, flags=re.S)
print(re.search(r"<version>([^<]+)</version>", pom).group(1))
PY
}

# The library's Maven version, as make build wrote it into its classes; fails naming the file when unbuilt.
library_version() {
    local properties="$ROOT/java/library/target/classes/org/apache/cloudstack/kubernetes/state/cks-state.properties"
    [ -f "$properties" ] || { echo "the library is not built ($properties is missing): run make build first" >&2; return 1; }
    sed -n 's|^version=||p' "$properties"
}

# The parts of the test server's URL (scripts/mariadb.sh url), on one line: host port database user password.
mariadb_url_parts() {
    local parts
    parts="$(sed -nE 's#^jdbc:mariadb://([^:/]+):([0-9]+)/([^?]+)\?(.*&)?user=([^&]+)&(.*&)?password=([^&]+).*$#\1 \2 \3 \5 \7#p' <<< "$1")"
    [ -n "$parts" ] || { echo "not a URL of scripts/mariadb.sh: ${1%%\?*}?..." >&2; return 1; }
    printf '%s\n' "$parts"
}
