#!/usr/bin/env bash
# CloudStack's Kubernetes Service plugin, patched by the series in cloudstack/*.patch to use the
# library, built against CloudStack's own modules, its tests and the series' tests run.
#
#   scripts/cloudstack.sh modules   build and install (local Maven repository) the unpatched
#                                   modules the plugin needs, once per source sha256
#   scripts/cloudstack.sh apply     extract the source into target/cloudstack/src and apply the
#                                   series (git apply --check first: a patch that no longer
#                                   applies fails naming its file and hunk)
#   scripts/cloudstack.sh test      modules, apply, install the library jar, then build the
#                                   modules the series touches and run their tests, then shade
#   scripts/cloudstack.sh library   install the library jar into the local Maven repository
#   scripts/cloudstack.sh shade     shade the patched plugin as client/pom.xml does and load the
#                                   native library from that jar (after test)
#
# The source is the tarball beside the repository (CKS_CLOUDSTACK_TARBALL, default
# ../shared/cloudstack/cloudstack-3d6cafe193.tar.gz), checked against its SHA256SUMS. Its README
# names three things CloudStack's build reaches beyond Maven Central; the workarounds are here:
#   1. trilead-ssh2 under the jenkins coordinates (install_trilead);
#   2. -Dcs.opensaml.version=2.6.4 on every Maven run (MVN_FLAGS);
#   3. -Ddownload.plugin.skip=true and an empty systemvm-templates/sha512sum.txt (workarounds).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared-tarball.sh
source "$ROOT/scripts/shared-tarball.sh"
TARBALL="$(shared_tarball)"
WORK="${CKS_CLOUDSTACK_WORK:-$ROOT/target/cloudstack}"
SERIES_DIR="$ROOT/cloudstack"
MVN="${CKS_CLOUDSTACK_MVN:-mvn -B -ntp -Dstyle.color=never}"
MVN_FLAGS=(-Dcs.opensaml.version=2.6.4 -Ddownload.plugin.skip=true)
# Only what the tests need; CloudStack's checkstyle still runs on the modules the series touches.
QUICK_FLAGS=(-DskipTests -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true -Drat.skip=true
    -Dspotbugs.skip=true -Dmaven.source.skip=true)
PLUGIN=plugins/integrations/kubernetes-service
# The modules the series patches, in reactor terms (-pl); their tests run on every `test`.
PATCHED_MODULES="framework/jobs,$PLUGIN"

log() { echo "cloudstack.sh: $*" >&2; }
die() { log "$*"; exit 1; }

m2_repo() {
    local repo
    repo="$(cd "$ROOT/java" && $MVN -q -Dstyle.color=never help:evaluate -Dexpression=settings.localRepository -DforceStdout 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | tail -1 || true)"
    [ -n "$repo" ] || repo="${HOME:-/root}/.m2/repository"
    echo "$repo"
}

check_tarball() {
    [ -f "$TARBALL" ] || die "no CloudStack source at $TARBALL (set CKS_CLOUDSTACK_TARBALL)"
    local sums="$(dirname "$TARBALL")/SHA256SUMS" name want got
    name="$(basename "$TARBALL")"
    [ -f "$sums" ] || die "no SHA256SUMS beside $TARBALL"
    want="$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$sums")"
    [ -n "$want" ] || die "$sums has no line for $name"
    got="$(sha256sum "$TARBALL" | cut -d' ' -f1)"
    [ "$want" = "$got" ] || die "$name: sha256 $got, SHA256SUMS says $want"
    echo "$got"
}

# Extract into $1 (replaced), apply the build workarounds there.
extract() {
    local dest="$1"
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -xzf "$TARBALL" -C "$dest" --strip-components=1
    mkdir -p "$dest/engine/schema/dist/systemvm-templates"
    : > "$dest/engine/schema/dist/systemvm-templates/sha512sum.txt"
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
    local sha repo marker src
    sha="$(check_tarball)"
    repo="$(m2_repo)"
    marker="$repo/org/apache/cloudstack/.cks-state-modules-$sha"
    if [ -f "$marker" ]; then
        log "CloudStack's modules of ${sha:0:12} are in $repo (built $(cat "$marker"))"
        return 0
    fi
    install_trilead "$repo"
    src="$WORK/pristine"
    log "extracting ${sha:0:12} into $src"
    extract "$src"
    log "building the modules $PLUGIN needs (about 8 minutes on 2 cores)"
    local start=$SECONDS
    (cd "$src" && $MVN "${MVN_FLAGS[@]}" "${QUICK_FLAGS[@]}" -pl "$PLUGIN" -am install) \
        > "$WORK/modules.log" 2>&1 || { tail -40 "$WORK/modules.log" >&2; die "building CloudStack's modules failed (log: $WORK/modules.log)"; }
    date -u +%FT%TZ > "$marker"
    rm -rf "$src"
    log "CloudStack's modules built in $((SECONDS - start)) s"
}

# Extract the pristine source into target/cloudstack/src and apply the series, each patch checked
# first: one that no longer applies stops here, and git names its file and hunk.
cmd_apply() {
    local sha src patch
    sha="$(check_tarball)"
    src="$WORK/src"
    log "extracting ${sha:0:12} into $src"
    extract "$src"
    shopt -s nullglob
    local series=("$SERIES_DIR"/*.patch)
    [ "${#series[@]}" -gt 0 ] || die "no patches in $SERIES_DIR"
    # Its own repository: inside this checkout's, git apply would skip every path as outside it.
    git init -q "$src"
    for patch in "${series[@]}"; do
        if ! git -C "$src" apply --check "$patch" 2> "$WORK/apply.err"; then
            cat "$WORK/apply.err" >&2
            die "$(basename "$patch") does not apply to CloudStack ${sha:0:12} (above: the file and hunk)"
        fi
        git -C "$src" apply --verbose "$patch" > "$WORK/apply.out" 2>&1
        if grep -q "^Skipped" "$WORK/apply.out" || ! grep -q "^Applied patch" "$WORK/apply.out"; then
            cat "$WORK/apply.out" >&2
            die "$(basename "$patch") changed nothing in CloudStack ${sha:0:12}"
        fi
        log "applied $(basename "$patch"): $(grep -c '^Applied patch' "$WORK/apply.out") file(s)"
    done
}

# The library jar as make built it (every native build inside) and its stand-alone pom, into the
# local Maven repository: what the patched plugin depends on. No native toolchain is needed here.
install_library() {
    local jar pom version
    pom="$ROOT/java/library/target/cks-state.pom"
    [ -f "$pom" ] || die "the library is not built ($pom is missing): run make build first"
    version="$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$pom" | head -1)"
    jar="$ROOT/java/library/target/cks-state-$version.jar"
    [ -f "$jar" ] || die "the library is not built ($jar is missing): run make build first"
    (cd "$ROOT/java" && $MVN -q -N install:install-file -Dfile="$jar" -DpomFile="$pom")
    log "installed cks-state $version into the local Maven repository"
}

# CloudStack's own database (scripts/cloudstack-db.sh) on the test server of scripts/mariadb.sh, and
# a db.properties for it: CloudStack's developer template (utils/conf/db.properties) pointed there.
# The series' database tests read it (-Dcks.cloudstack.db.properties). Stops the server at exit
# when it started it.
database() {
    if ! "$ROOT/scripts/mariadb.sh" status 2>/dev/null; then
        "$ROOT/scripts/mariadb.sh" start >&2
        trap '"$ROOT/scripts/mariadb.sh" stop >&2' EXIT
    fi
    "$ROOT/scripts/cloudstack-db.sh" load >&2
    local url host port user password
    url="$("$ROOT/scripts/mariadb.sh" url)"
    host="$(sed -E 's|^jdbc:mariadb://([^:/]+):([0-9]+)/.*|\1|' <<< "$url")"
    port="$(sed -E 's|^jdbc:mariadb://([^:/]+):([0-9]+)/.*|\2|' <<< "$url")"
    user="$(sed -E 's|.*[?&]user=([^&]*).*|\1|' <<< "$url")"
    password="$(sed -E 's|.*[?&]password=([^&]*).*|\1|' <<< "$url")"
    # The usage database is not used by the tests: it points at cloud too.
    sed -E -e "s#^db\.(cloud|usage|simulator)\.host=.*#db.\1.host=$host#" \
        -e "s#^db\.(cloud|usage|simulator)\.port=.*#db.\1.port=$port#" \
        -e "s#^db\.(cloud|usage|simulator)\.username=.*#db.\1.username=$user#" \
        -e "s#^db\.(cloud|usage|simulator)\.password=.*#db.\1.password=$password#" \
        -e "s#^db\.usage\.name=.*#db.usage.name=cloud#" \
        "$WORK/src/utils/conf/db.properties" > "$WORK/db.properties"
}

# The library jar in the local Maven repository (make e2e-cloudstack builds against it too).
cmd_library() {
    install_library
}

# The modules the series patches, built against the installed unpatched ones; their tests run
# (JUnit 4 and Mockito, CloudStack's own style), with CloudStack's checkstyle.
cmd_test() {
    cmd_modules
    cmd_apply
    # The docs' snippets of plugin code are the patched plugin's code.
    python3 "$ROOT/scripts/check-cloudstack-snippets.py" "$WORK/src" "$ROOT/docs/cloudstack-integration.md" \
        "$ROOT/docs/fenced-mode.md" >&2
    install_library
    database
    local start=$SECONDS
    log "building and testing $PATCHED_MODULES"
    # Every JVM of the run (surefire's forks included) checks JNI: a warning fails the run below.
    if ! (cd "$WORK/src" && JAVA_TOOL_OPTIONS="-Xcheck:jni" $MVN "${MVN_FLAGS[@]}" -Drat.skip=true \
            -Dspotbugs.skip=true -Dcks.cloudstack.db.properties="$WORK/db.properties" -pl "$PATCHED_MODULES" verify) \
            > "$WORK/test.log" 2>&1; then
        grep -E "Tests run:|FAIL|ERROR" "$WORK/test.log" | tail -40 >&2
        die "CloudStack's patched modules failed (log: $WORK/test.log)"
    fi
    grep -E "Tests run: [0-9]+, Failures" "$WORK/test.log" | grep -v " in " >&2 || true
    local reports=()
    IFS=, read -ra modules <<< "$PATCHED_MODULES"
    for module in "${modules[@]}"; do reports+=("$WORK/src/$module/target/surefire-reports"); done
    (cd "$ROOT" && scripts/check-jni-warnings.sh "$WORK/test.log" "${reports[@]}") >&2
    log "patched modules built and tested in $((SECONDS - start)) s"
    cmd_shade
}

# The management server's jar: the patched plugin and its dependencies shaded by client/pom.xml's own
# maven-shade-plugin configuration (read from the source, not copied), then the plugin binds the
# library from that jar and its native library loads from it (cloudstack/shade-check).
cmd_shade() {
    local start=$SECONDS dir="$WORK/shade" version jar
    version="$(sed -n 's|^version=||p' "$ROOT/java/library/target/classes/org/apache/cloudstack/kubernetes/state/cks-state.properties")"
    jar="$(ls "$WORK/src/$PLUGIN"/target/cloud-plugin-integrations-kubernetes-service-*.jar | grep -v -- '-tests.jar' | head -1)"
    [ -f "$jar" ] || die "no patched plugin jar in $WORK/src/$PLUGIN/target: run $0 test first"
    # The patched plugin where the shading pom finds it, as `mvn install` of a CloudStack build puts it.
    (cd "$WORK/src" && $MVN -q "${MVN_FLAGS[@]}" -N install:install-file -Dfile="$jar" -DpomFile="$PLUGIN/pom.xml") >&2
    mkdir -p "$dir/tmp"
    python3 - "$WORK/src/client/pom.xml" "$dir/pom.xml" <<'PY'
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
    <version>4.22.0.0-SNAPSHOT</version>
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
""" % plugins[0])
PY
    log "shading the patched plugin as client/pom.xml does"
    if ! (cd "$dir" && $MVN "${MVN_FLAGS[@]}" "${QUICK_FLAGS[@]}" package) > "$dir/build.log" 2>&1; then
        tail -30 "$dir/build.log" >&2
        die "shading failed (log: $dir/build.log)"
    fi
    local shaded="$dir/target/cks-state-shade-check-4.22.0.0-SNAPSHOT.jar" platform
    for platform in linux-x86_64 linux-aarch64; do
        unzip -l "$shaded" "native/$platform/libcks_state.so" > /dev/null \
            || die "the shaded jar has no native/$platform/libcks_state.so"
    done
    local out
    if ! out="$(java -Xcheck:jni -Djava.io.tmpdir="$dir/tmp" -cp "$shaded" "$SERIES_DIR/shade-check/ShadedJarCheck.java" \
            "$version" 2>&1)"; then
        printf '%s\n' "$out" >&2
        die "the plugin did not bind cks-state from the shaded jar"
    fi
    printf '%s\n' "$out" > "$dir/check.log"
    (cd "$ROOT" && scripts/check-jni-warnings.sh "$dir/check.log") >&2
    log "shaded jar ($(du -m "$shaded" | cut -f1) MiB): $(grep '^cks-state ' "$dir/check.log") ($((SECONDS - start)) s)"
}

"cmd_${1:-test}" "${@:2}"
