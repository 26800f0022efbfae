#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# CloudStack's Kubernetes Service plugin, patched by the series of each release line
# (cloudstack/<line>/*.patch, the lines of cloudstack/lines.tsv) to use the library, built against
# that line's own modules, its tests and the series' tests run on that line's own database.
#
#   scripts/cloudstack.sh test [LINE...]   every line (default) or the ones named: modules, apply,
#                                          install the library jar, build the modules the series
#                                          touches and run their tests, then shade
#   scripts/cloudstack.sh modules LINE     build and install (local Maven repository) the unpatched
#                                          modules the plugin needs, once per source sha256
#   scripts/cloudstack.sh apply LINE [DIR [VERSION]]
#                                          extract the line's source into DIR (target/cloudstack/<line>/src;
#                                          its poms set to VERSION when given) and apply the series,
#                                          each patch checked first: one that no longer applies fails
#                                          naming the line, its file and the hunk
#   scripts/cloudstack.sh extract LINE DIR   the line's pristine source (checked) into DIR, nothing applied
#   scripts/cloudstack.sh versions         each series applied to its source with the poms set to a
#                                          later release number of the line (no hunk may depend on
#                                          the version line)
#   scripts/cloudstack.sh library          install the library jar into the local Maven repository
#   scripts/cloudstack.sh shade LINE       shade the patched plugin as the line's client/pom.xml does
#                                          and bind the library from that jar (after test)
#   scripts/cloudstack.sh management-server LINE [--simulator] [--unpatched] [--with DIR]
#                                          the patched management server's jar of the line (what a
#                                          package installs as lib/cloudstack-<version>.jar); see
#                                          docs/install-on-cloudstack.md. --unpatched: the line as
#                                          released, no series, in <work>/<line>-unpatched
#
# The sources are the tarballs of cloudstack/lines.tsv in the shared folder (scripts/shared.sh),
# checked against their SHA256SUMS; or a release's own (CKS_CLOUDSTACK_SOURCE, checked by its SHA-512:
# scripts/package.sh release). CloudStack's build reaches beyond Maven Central in three places
# (../shared/cloudstack/README.md); the workarounds are here:
#   1. trilead-ssh2 under the jenkins coordinates (install_trilead);
#   2. -Dcs.opensaml.version=2.6.4 on every Maven run (MVN_FLAGS);
#   3. -Ddownload.plugin.skip=true and empty systemvm-templates/sha512sum.txt and md5sum.txt (extract).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
WORK_ROOT="${CKS_CLOUDSTACK_WORK:-$ROOT/target/cloudstack}"
MVN="${CKS_CLOUDSTACK_MVN:-mvn -B -ntp -Dstyle.color=never}"
MVN_FLAGS=(-Dcs.opensaml.version=2.6.4 -Ddownload.plugin.skip=true)
# Only what the build needs; CloudStack's checkstyle still runs on the modules the series touches.
QUICK_FLAGS=(-DskipTests -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true -Drat.skip=true
    -Dspotbugs.skip=true -Dmaven.source.skip=true -Dmaven.gitcommitid.skip=true)
PLUGIN=plugins/integrations/kubernetes-service
# The modules the series patches, in reactor terms (-pl); their tests run on every `test`.
PATCHED_MODULES="framework/cluster,framework/jobs,$PLUGIN"

log() { echo "cloudstack.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# The line's tarball and its checked sha256 (TARBALL, SHA), and its build folder (WORK).
use_line() {
    LINE="$1"
    line_field "$LINE" tarball >/dev/null || exit 1
    TARBALL="$(line_tarball "$LINE")" || exit 1
    SHA="$(tarball_sha256 "$TARBALL")" || exit 1
    WORK="$WORK_ROOT/$LINE"
    mkdir -p "$WORK"
}

# Extract the line's source into $1 (replaced) and apply the build workarounds there.
extract() {
    local dest="$1"
    rm -rf "$dest"
    mkdir -p "$dest"
    # gzip (git archive) or bzip2 (Apache's source release): tar tells by the content.
    tar -xf "$TARBALL" -C "$dest" --strip-components=1
    mkdir -p "$dest/engine/schema/dist/systemvm-templates"
    : > "$dest/engine/schema/dist/systemvm-templates/sha512sum.txt"
    : > "$dest/engine/schema/dist/systemvm-templates/md5sum.txt"
}


# Every pom of the tree at $1 set from version $2 to $3 (the release manager's version bump).
set_version() {
    local tree="$1" from="$2" to="$3"
    grep -rlF --include=pom.xml "<version>$from</version>" "$tree" | xargs -r sed -i "s|<version>$from</version>|<version>$to</version>|g"
}

install_trilead() {
    local repo="$1"
    [ -f "$repo/org/jenkins-ci/trilead-ssh2/build-217-jenkins-27/trilead-ssh2-build-217-jenkins-27.jar" ] && return 0
    log "installing com.trilead:trilead-ssh2:1.0.0-build222 as org.jenkins-ci:trilead-ssh2:build-217-jenkins-27"
    (cd "$ROOT/java" && $MVN -q -N dependency:get -Dartifact=com.trilead:trilead-ssh2:1.0.0-build222 -Dtransitive=false)
    (cd "$ROOT/java" && $MVN -q -N install:install-file \
        -Dfile="$repo/com/trilead/trilead-ssh2/1.0.0-build222/trilead-ssh2-1.0.0-build222.jar" \
        -DgroupId=org.jenkins-ci -DartifactId=trilead-ssh2 -Dversion=build-217-jenkins-27 -Dpackaging=jar)
}

cmd_modules() {
    use_line "$1"
    local repo marker src
    repo="$(m2_repo)"
    marker="$repo/org/apache/cloudstack/.cks-state-modules-$SHA"
    if [ -f "$marker" ]; then
        log "$LINE: CloudStack's modules of ${SHA:0:12} are in $repo (built $(cat "$marker"))"
        return 0
    fi
    install_trilead "$repo"
    src="$WORK/pristine"
    log "$LINE: extracting ${SHA:0:12} into $src"
    extract "$src"
    log "$LINE: building the modules $PLUGIN needs (about 3 to 5 minutes on 2 cores)"
    local start=$SECONDS
    (cd "$src" && $MVN "${MVN_FLAGS[@]}" "${QUICK_FLAGS[@]}" -pl "$PLUGIN" -am install) \
        > "$WORK/modules.log" 2>&1 || { tail -40 "$WORK/modules.log" >&2; die "$LINE: building CloudStack's modules failed (log: $WORK/modules.log)"; }
    date -u +%FT%TZ > "$marker"
    rm -rf "$src"
    log "$LINE: CloudStack's modules built in $((SECONDS - start)) s"
}

# Apply the line's series to the tree at $1, each patch checked first; one that no longer applies
# stops here, and git names its file and hunk.
apply_series() {
    local src="$1" what="$2" patch
    shopt -s nullglob
    local series=("$ROOT/cloudstack/$LINE"/*.patch)
    [ "${#series[@]}" -gt 0 ] || die "$LINE: no patches in cloudstack/$LINE"
    # Its own repository: inside this checkout's, git apply would skip every path as outside it.
    git init -q "$src"
    for patch in "${series[@]}"; do
        if ! git -C "$src" apply --check "$patch" 2> "$WORK/apply.err"; then
            cat "$WORK/apply.err" >&2
            die "line $LINE: $(basename "$patch") does not apply to $what (above: the file and hunk)"
        fi
        git -C "$src" apply --verbose "$patch" > "$WORK/apply.out" 2>&1
        if grep -q "^Skipped" "$WORK/apply.out" || ! grep -q "^Applied patch" "$WORK/apply.out"; then
            cat "$WORK/apply.out" >&2
            die "line $LINE: $(basename "$patch") changed nothing in $what"
        fi
        log "$LINE: applied $(basename "$patch"): $(grep -c '^Applied patch' "$WORK/apply.out") file(s)"
    done
}

# The line's pristine source, as every command here extracts it, into DIR (scripts/series-commits.sh).
cmd_extract() {
    use_line "$1"
    extract "${2:?usage: $0 extract LINE DIR}"
}

# Extract the line's pristine source into $2 (target/cloudstack/<line>/src by default) and apply the
# series; with VERSION ($3), the poms are set to it first.
cmd_apply() {
    use_line "$1"
    local src="${2:-$WORK/src}" what="CloudStack ${SHA:0:12}"
    log "$LINE: extracting ${SHA:0:12} into $src"
    extract "$src"
    if [ -n "${3:-}" ]; then
        set_version "$src" "$(source_version "$src")" "$3"
        what="$what with its poms at $3"
    fi
    apply_series "$src" "$what"
}

# The patches of folder $2 applied to the source $1 after the series, each checked first.
apply_extra() {
    local patch
    for patch in "$2"/*.patch; do
        git -C "$1" apply --check "$patch" 2>&1 && git -C "$1" apply "$patch" \
            || die "$LINE: $(basename "$patch") of $2 does not apply after the series"
        log "$LINE: applied $(basename "$patch") of $2"
    done
}

# Each series applies with the poms at a later release of its line (cloudstack/lines.tsv): a hunk
# whose context is the version line would break at the line's next release. On each line the e2e runs
# (a folder cloudstack/e2e/<line>), its harness patches must apply after the series too, and its
# unpatched ones to the source alone: make test catches a series change that breaks them, not the next
# make e2e-cloudstack.
cmd_versions() {
    local line release dir harness
    for line in $(lines); do
        release="$(line_field "$line" release)"
        dir="$WORK_ROOT/$line/versions"
        harness="$ROOT/cloudstack/e2e/$line"
        mkdir -p "$dir"
        ( cmd_apply "$line" "$dir/src" "$release"
          if [ -d "$harness" ]; then
              apply_extra "$dir/src" "$harness"
              extract "$dir/src" && git init -q "$dir/src" && apply_extra "$dir/src" "$harness/unpatched"
          fi ) >/dev/null 2>"$dir/apply.err" \
            || { cat "$dir/apply.err" >&2; exit 1; }
        rm -rf "$dir/src"
        if [ -d "$harness" ]; then
            log "$line: the series applies with the poms at $release, cloudstack/e2e/$line after it, cloudstack/e2e/$line/unpatched to the source alone"
        else
            log "$line: the series applies with the poms at $release"
        fi
    done
}

# The library jar as make built it (every native build inside) and its stand-alone pom, into the
# local Maven repository: what the patched plugin depends on. No native toolchain is needed here.
cmd_library() {
    local jar pom version
    pom="$ROOT/java/library/target/cks-state.pom"
    [ -f "$pom" ] || die "the library is not built ($pom is missing): run make build first"
    version="$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$pom" | head -1)"
    jar="$ROOT/java/library/target/cks-state-$version.jar"
    [ -f "$jar" ] || die "the library is not built ($jar is missing): run make build first"
    (cd "$ROOT/java" && $MVN -q -N install:install-file -Dfile="$jar" -DpomFile="$pom")
    log "installed cks-state $version into the local Maven repository"
}

# CloudStack's tests with the series (database, test_line, cmd_test: scripts/cloudstack-tests.sh).
# shellcheck source=cloudstack-tests.sh
source "$ROOT/scripts/cloudstack-tests.sh"

# The management server's jar: the patched plugin and its dependencies shaded by the line's own
# client/pom.xml maven-shade-plugin configuration (read from the source, not copied), then the
# plugin binds the library from that jar and its native library loads from it (cloudstack/shade-check).
cmd_shade() {
    use_line "$1"
    local start=$SECONDS dir="$WORK/shade" version cs_version jar
    version="$(library_version)"
    cs_version="$(source_version "$WORK/src")"
    jar="$WORK/src/$PLUGIN/target/cloud-plugin-integrations-kubernetes-service-$cs_version.jar"
    [ -f "$jar" ] || die "$LINE: no patched plugin jar $jar: run $0 test $LINE first"
    # The patched plugin where the shading pom finds it, as `mvn install` of a CloudStack build puts it,
    # with the patched root pom its version property is in.
    (cd "$WORK/src" && $MVN -q "${MVN_FLAGS[@]}" -N install:install-file -Dfile=pom.xml -DpomFile=pom.xml -Dpackaging=pom \
        && $MVN -q "${MVN_FLAGS[@]}" -N install:install-file -Dfile="$jar" -DpomFile="$PLUGIN/pom.xml") >&2
    mkdir -p "$dir/tmp"
    python3 - "$WORK/src/client/pom.xml" "$dir/pom.xml" "$cs_version" <<'PY'
import re, sys
client = open(sys.argv[1]).read()
plugins = re.findall(r"<plugin>(?:(?!</plugin>).)*?<artifactId>maven-shade-plugin</artifactId>.*?</plugin>", client, re.S)
if len(plugins) != 1:
    sys.exit("client/pom.xml: %d maven-shade-plugin elements, expected one" % len(plugins))
open(sys.argv[2], "w").write("""<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by cks-state's scripts/cloudstack.sh shade: client/pom.xml's shading of the patched plugin. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.apache.cloudstack</groupId>
    <artifactId>cloudstack</artifactId>
    <version>%s</version>
    <relativePath>../src/pom.xml</relativePath>
  </parent>
  <artifactId>cks-state-shade-check</artifactId>
  <dependencies>
    <dependency>
      <groupId>org.apache.cloudstack</groupId>
      <artifactId>cloud-plugin-integrations-kubernetes-service</artifactId>
      <version>${project.version}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      %s
    </plugins>
  </build>
</project>
""" % (sys.argv[3], plugins[0]))
PY
    log "$LINE: shading the patched plugin as client/pom.xml does"
    if ! (cd "$dir" && $MVN "${MVN_FLAGS[@]}" "${QUICK_FLAGS[@]}" package) > "$dir/build.log" 2>&1; then
        tail -30 "$dir/build.log" >&2
        die "$LINE: shading failed (log: $dir/build.log)"
    fi
    local shaded="$dir/target/cks-state-shade-check-$cs_version.jar" platform
    for platform in linux-x86_64 linux-aarch64; do
        unzip -l "$shaded" "native/$platform/libcks_state.so" > /dev/null \
            || die "$LINE: the shaded jar has no native/$platform/libcks_state.so"
    done
    local out
    if ! out="$(java -Xcheck:jni -Djava.io.tmpdir="$dir/tmp" -cp "$shaded" "$ROOT/cloudstack/shade-check/ShadedJarCheck.java" \
            "$version" 2>&1)"; then
        printf '%s\n' "$out" >&2
        die "$LINE: the plugin did not bind cks-state from the shaded jar"
    fi
    printf '%s\n' "$out" > "$dir/check.log"
    (cd "$ROOT" && scripts/check-jni-warnings.sh "$dir/check.log") >&2
    log "$LINE: shaded jar ($(du -m "$shaded" | cut -f1) MiB): $(grep '^cks-state ' "$dir/check.log") ($((SECONDS - start)) s)"
}

# The patched management server of a line: its source extracted afresh into
# target/cloudstack/<line>/src, the series applied (then, with --with DIR, the patches of DIR: the
# e2e's harness changes), the library installed, then CloudStack's client module and what it needs
# built; --simulator adds the simulator hypervisor (make e2e-cloudstack). Prints the jar's path:
# client/target/cloud-client-ui-<version>.jar, which packages install as
# /usr/share/cloudstack-management/lib/cloudstack-<version>.jar (docs/install-on-cloudstack.md).
cmd_management_server() {
    local line="${1:?usage: $0 management-server LINE [--simulator] [--unpatched] [--with DIR]}" flags=("${MVN_FLAGS[@]}") extra="" what="" unpatched=""
    shift
    while [ $# -gt 0 ]; do
        case "$1" in
            --simulator) flags+=(-Dsimulator); what="$what with the simulator" ;;
            --unpatched) unpatched=1; what="$what, unpatched" ;;
            --with) extra="${2:?--with needs a folder of patches}"; shift ;;
            *) die "management-server: unknown option $1" ;;
        esac
        shift
    done
    # Only the jar's path goes to standard output.
    cmd_modules "$line" >&2
    if [ -n "$unpatched" ]; then
        # CloudStack as released, beside the patched build (its own folder): what users run today.
        WORK="$WORK_ROOT/$LINE-unpatched"
        mkdir -p "$WORK"
        log "$LINE: extracting ${SHA:0:12} into $WORK/src, no series"
        extract "$WORK/src" >&2
        git init -q "$WORK/src"
    else
        cmd_apply "$line" >&2
        cmd_library >&2
    fi
    [ -z "$extra" ] || apply_extra "$WORK/src" "$extra" >&2
    local start=$SECONDS cs_version
    cs_version="$(source_version "$WORK/src")"
    log "$LINE: building the management server$what (client and what it needs, about 8 minutes; log: $WORK/management-server.log)"
    # The unpatched build stays in its folder: installed, its modules would replace the series' in the
    # local repository under the same version.
    local goal=install
    [ -z "$unpatched" ] || goal=package
    if ! (cd "$WORK/src" && nice $MVN "${flags[@]}" "${QUICK_FLAGS[@]}" -pl client -am $goal) > "$WORK/management-server.log" 2>&1; then
        grep -E "ERROR|BUILD" "$WORK/management-server.log" | head -20 >&2
        die "$LINE: the management server did not build (log: $WORK/management-server.log)"
    fi
    local jar="$WORK/src/client/target/cloud-client-ui-$cs_version.jar"
    [ -f "$jar" ] || die "$LINE: the build left no $jar"
    log "$LINE: built in $((SECONDS - start)) s"
    echo "$jar"
}

command="${1:-test}"
shift || true
"cmd_${command//-/_}" "$@"
