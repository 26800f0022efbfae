#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Runs the library jar where CloudStack runs it, not only on this machine:
#
#   debian11-x86_64   Debian 11's glibc 2.31 and its OpenJDK 17 (amd64), started through that
#                     glibc's own loader: older than the build machine's glibc
#   debian11-aarch64  Debian 11's glibc 2.31 and its OpenJDK 17 (arm64) under qemu-user-static
#
# Each run puts only the library jar, log4j-api and PlatformSmoke on the class path; the jar must
# pick its own build for the platform and answer (bind, nextState, entry decisions, a recovery
# plan). The userlands come from Debian's packages into .toolchains/sysroots/ (kept between runs).
#   jdk22+            a JDK 22 or later where the machine has one (Temurin 25 here): `java -jar`
#                     of the CLI jar gives no native-access warning (its manifest's
#                     Enable-Native-Access), and the library jar on a class path gives none with
#                     --enable-native-access=ALL-UNNAMED, the option the integration guide names
#
# A check is skipped only when a package it needs cannot be had, and says what was missing; with
# CI=true a skipped check fails the run.
#
#   scripts/platform-smoke.sh LIBRARY_JAR CLI_JAR TEST_CLASSES HOST_CLASSPATH_FILE
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${CKS_TOOLCHAINS_DIR:-$ROOT/.toolchains}"
SYSROOTS="$TOOLS/sysroots"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
MIRROR=http://deb.debian.org
USERLAND_PACKAGES=(libc6 libgcc-s1 libstdc++6 zlib1g openjdk-17-jre-headless)
RUN_TIMEOUT=600

log() { echo "platform-smoke: $*" >&2; }
die() { log "$*"; exit 1; }

[ $# -eq 4 ] || die "usage: platform-smoke.sh LIBRARY_JAR CLI_JAR TEST_CLASSES HOST_CLASSPATH_FILE"
JAR="$(realpath "$1")"
CLI_JAR="$(realpath "$2")"
TEST_CLASSES="$(realpath "$3")"
HOST_CP="$(cat "$4")"
[ -f "$JAR" ] || die "no library jar at $1"
[ -f "$CLI_JAR" ] || die "no CLI jar at $2"
CP="$JAR:$HOST_CP:$TEST_CLASSES"

# apt-get with a private state, cache and source list: downloads only, the machine's apt untouched.
private_apt() {
    local dir=$1 arch=$2
    shift 2
    apt-get -q -o Dir::State="$dir/apt/state" -o Dir::State::status="$dir/apt/status" \
        -o Dir::Cache="$dir/apt/cache" -o Dir::Etc::SourceList="$dir/apt/sources.list" \
        -o Dir::Etc::SourceParts=/dev/null -o APT::Architecture="$arch" -o APT::Architectures::="$arch" \
        -o APT::Sandbox::User=root "$@"
}

# Makes $SYSROOTS/NAME from the packages of SOURCES (one "deb ..." line each) for ARCH.
# Returns 1, having said why, when the packages cannot be had.
make_sysroot() {
    local name=$1 arch=$2 sources=$3 dir="$SYSROOTS/$1" debs
    if [ -f "$dir/.complete" ]; then
        return 0
    fi
    log "building the $name userland from Debian's packages: ${USERLAND_PACKAGES[*]} ($arch)"
    rm -rf "$dir"
    mkdir -p "$dir/apt/state/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs" "$dir/root"
    : >"$dir/apt/status"
    printf '%s\n' "$sources" >"$dir/apt/sources.list"
    if ! private_apt "$dir" "$arch" update >"$dir/apt/update.log" 2>&1; then
        log "SKIP $name: apt-get update of [$sources] failed: $(grep -E '^(E|W):' "$dir/apt/update.log" | head -3 | tr '\n' ' ')"
        return 1
    fi
    if ! (cd "$dir/debs" && private_apt "$dir" "$arch" download "${USERLAND_PACKAGES[@]/%/:$arch}") \
        >"$dir/apt/download.log" 2>&1; then
        log "SKIP $name: cannot download ${USERLAND_PACKAGES[*]} ($arch): $(grep -E '^E:' "$dir/apt/download.log" | head -3 | tr '\n' ' ')"
        return 1
    fi
    for debs in "$dir"/debs/*.deb; do
        dpkg-deb -x "$debs" "$dir/root"
    done
    (cd "$dir/debs" && ls) >"$dir/packages"
    touch "$dir/.complete"
}

qemu_aarch64() {
    local dir="$SYSROOTS/qemu"
    if [ ! -x "$dir/usr/bin/qemu-aarch64-static" ]; then
        log "getting qemu-user-static from Debian's packages"
        rm -rf "$dir" && mkdir -p "$dir/debs"
        if ! (cd "$dir/debs" && apt-get -q -o APT::Sandbox::User=root download qemu-user-static) >"$dir/download.log" 2>&1; then
            apt-get update -q >/dev/null 2>&1 || true
            (cd "$dir/debs" && apt-get -q -o APT::Sandbox::User=root download qemu-user-static) >"$dir/download.log" 2>&1 || {
                log "SKIP debian11-aarch64: cannot download qemu-user-static: $(grep -E '^E:' "$dir/download.log" | head -2 | tr '\n' ' ')"
                return 1
            }
        fi
        dpkg-deb -x "$dir"/debs/qemu-user-static_*.deb "$dir"
    fi
    echo "$dir/usr/bin/qemu-aarch64-static"
}

# Runs PlatformSmoke in a sysroot's JVM through its own loader; fails unless it answers SMOKE OK.
smoke() {
    local name=$1 platform=$2 multiarch=$3 jvm=$4
    shift 4
    local r="$SYSROOTS/$name/root" out
    local loader=("$r"/lib/"$multiarch"/ld-*.so)
    local java="$r/usr/lib/jvm/$jvm/bin/java"
    [ -x "$java" ] || die "$name: no JVM at $java"
    log "$name: $(grep -E '^(libc6|openjdk)' "$SYSROOTS/$name/packages" | tr '\n' ' ')"
    if ! out="$(timeout "$RUN_TIMEOUT" "$@" "${loader[0]}" --library-path "$r/lib/$multiarch:$r/usr/lib/$multiarch" \
        "$java" -Xcheck:jni -XX:TieredStopAtLevel=1 -Djava.io.tmpdir="$SYSROOTS/$name/tmp" \
        -cp "$CP" org.apache.cloudstack.kubernetes.state.PlatformSmoke "$platform" 2>&1)"; then
        echo "$out" >&2
        die "$name: the smoke run failed"
    fi
    echo "$out" | grep -E '^SMOKE|WARNING' >&2 || true
    if ! grep -q "^SMOKE OK $platform " <<< "$out" || grep -q 'WARNING' <<< "$out"; then
        echo "$out" >&2
        die "$name: no clean SMOKE OK for $platform"
    fi
    log "PASS $name"
}

ran=()
skipped=()
debian11_main="deb [signed-by=$KEYRING] $MIRROR/debian bullseye main"
debian11_security="deb [signed-by=$KEYRING] $MIRROR/debian-security bullseye-security main"

if make_sysroot debian11-x86_64 amd64 "$debian11_main"$'\n'"$debian11_security"; then
    mkdir -p "$SYSROOTS/debian11-x86_64/tmp"
    smoke debian11-x86_64 linux-x86_64 x86_64-linux-gnu java-17-openjdk-amd64
    ran+=(debian11-x86_64)
else
    skipped+=(debian11-x86_64)
fi

# bullseye-security serves no arm64 builds here; bullseye's own are enough for a loader check.
if qemu="$(qemu_aarch64)" && make_sysroot debian11-aarch64 arm64 "$debian11_main"; then
    mkdir -p "$SYSROOTS/debian11-aarch64/tmp"
    smoke debian11-aarch64 linux-aarch64 aarch64-linux-gnu java-17-openjdk-arm64 \
        "$qemu" -L "$SYSROOTS/debian11-aarch64/root"
    ran+=(debian11-aarch64)
else
    skipped+=(debian11-aarch64)
fi

# The newest JDK of 22 or later on the machine, or nothing.
newest_jdk22() {
    local java v best="" best_v=0
    for java in ${CKS_JDK22_JAVA:-} /usr/lib/jvm/*/bin/java; do
        [ -x "$java" ] || continue
        v="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
        if [[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -ge 22 ] && [ "$v" -gt "$best_v" ]; then
            best="$java" best_v="$v"
        fi
    done
    echo "$best"
}

no_native_access_warning() {
    local what=$1 out
    shift
    out="$(timeout "$RUN_TIMEOUT" "$@" 2>&1)" || { echo "$out" >&2; die "jdk22+: $what failed"; }
    if grep -q 'WARNING: .*restricted method\|WARNING: .*native access' <<< "$out"; then
        echo "$out" | grep WARNING >&2
        die "jdk22+: $what printed a native-access warning"
    fi
}

jdk22="$(newest_jdk22)"
if [ -n "$jdk22" ]; then
    log "jdk22+: $("$jdk22" -version 2>&1 | head -n1)"
    no_native_access_warning "java -jar $(basename "$CLI_JAR") table" "$jdk22" -jar "$CLI_JAR" table --format tsv
    no_native_access_warning "the library jar with --enable-native-access=ALL-UNNAMED" \
        "$jdk22" --enable-native-access=ALL-UNNAMED -cp "$CP" org.apache.cloudstack.kubernetes.state.PlatformSmoke linux-x86_64
    log "PASS jdk22+"
    ran+=(jdk22+)
else
    log "SKIP jdk22+: no JDK 22 or later under /usr/lib/jvm (CKS_JDK22_JAVA names one)"
    skipped+=(jdk22+)
fi

log "ran: ${ran[*]:-none}; skipped: ${skipped[*]:-none}"
# CI runs on a machine of the project's kind, where every check can run: a skip there hides a
# broken install step, so it fails.
if [ "${CI:-}" = true ] && [ ${#skipped[@]} -gt 0 ]; then
    log "CI=true: ${skipped[*]} could not run; failing instead of skipping"
    exit 1
fi
