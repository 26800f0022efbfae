#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Builds libcks_state.so for every platform the jar carries, with a glibc 2.17 floor, from
# registry packages only:
#
#   linux-x86_64    rustup's pinned toolchain (rust-toolchain.toml), linked by zig through
#                   cargo-zigbuild for x86_64-unknown-linux-gnu.2.17
#   linux-aarch64   Debian's rustc-web with its arm64 standard library (libstd-rust-web-dev:arm64),
#                   linked by the same zig for aarch64-unknown-linux-gnu.2.17
#
#   scripts/native.sh toolchains      install what the builds need, pinned (idempotent; `make toolchains`)
#   scripts/native.sh toolchains-host what build-host needs: the rustup toolchain only (`make run`)
#   scripts/native.sh check           exit 0 when every pinned toolchain is installed, else one line
#                                     naming what is missing
#   scripts/native.sh build OUT       build both and lay out OUT/native/<platform>/libcks_state.so
#                                     and OUT/native/platforms (what the jar carries, one a line)
#   scripts/native.sh build-host OUT  this machine's platform only, with the pinned rustup toolchain
#                                     and no glibc floor: a fast build for development
#   scripts/native.sh build-one PLATFORM OUT   one platform only (quick checks)
#
# Only `toolchains` installs anything: the builds (run by Maven) check the toolchains and fail with
# one line naming what is missing and `make toolchains`.
#
# `build` also builds OUT/test-hooks/libcks_state.so for this machine with the cargo feature
# test-hooks (NativeTestHooks: the JNI floor, a forced panic): the tests and benchmarks that need
# those load it; the jar never carries it.
#
# zig and cargo-zigbuild come from PyPI into .toolchains/ (gitignored, kept between builds);
# rustc-web and the arm64 standard library from Debian's packages (apt, as root); the rustup
# toolchain of rust-toolchain.toml from rustup. Every version is pinned; one that cannot be had
# fails with one line naming it, never a fallback to another version. Paths of this checkout and of CARGO_HOME are remapped so that the library
# carries no home paths and two checkouts of one commit build the same bytes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${CKS_TOOLCHAINS_DIR:-$ROOT/.toolchains}"
ZIGLANG_VERSION="$(sed -n 's/^ziglang==\([^ ]*\).*/\1/p' "$ROOT/scripts/native-requirements.txt")"
CARGO_ZIGBUILD_VERSION="$(sed -n 's/^cargo-zigbuild==\([^ ]*\).*/\1/p' "$ROOT/scripts/native-requirements.txt")"
# Debian bookworm-security; its rustc and arm64 standard library must be the same version.
DEBIAN_RUSTC_VERSION=1.96.0+dfsg1-1~deb12u2
DEBIAN_RUSTC=/usr/bin/rustc
GLIBC_FLOOR=2.17
LIB=libcks_state.so
# The workspace's JNI crate (jni/) builds it, under its own crate's name.
CRATE=cks-state-jni
BUILT=libcks_state_jni.so
PLATFORMS=(linux-x86_64 linux-aarch64)

log() { echo "native.sh: $*" >&2; }
die() { log "$*"; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

triple() {
    case "$1" in
        linux-x86_64) echo x86_64-unknown-linux-gnu ;;
        linux-aarch64) echo aarch64-unknown-linux-gnu ;;
        *) die "unknown platform '$1' (known: ${PLATFORMS[*]})" ;;
    esac
}

RUSTUP_TOOLCHAIN_VERSION="$(sed -n 's/^channel = "\(.*\)"/\1/p' "$ROOT/rust-toolchain.toml")"

have_zig_tools() {
    local venv="$TOOLS/venv"
    [ -x "$venv/bin/cargo-zigbuild" ] &&
        "$venv/bin/cargo-zigbuild" --version 2>/dev/null | grep -qxF "cargo-zigbuild $CARGO_ZIGBUILD_VERSION" &&
        [ "$("$venv/bin/python" -m ziglang version 2>/dev/null)" = "$ZIGLANG_VERSION" ]
}

have_debian_rustc() {
    [ "$(dpkg-query -W -f='${Version}' rustc-web 2>/dev/null)" = "$DEBIAN_RUSTC_VERSION" ] &&
        [ "$(dpkg-query -W -f='${Version}' libstd-rust-web-dev:arm64 2>/dev/null)" = "$DEBIAN_RUSTC_VERSION" ] &&
        [ -d /usr/lib/rustlib/aarch64-unknown-linux-gnu/lib ]
}

have_rustup_toolchain() {
    rustup toolchain list 2>/dev/null | grep -q "^$RUSTUP_TOOLCHAIN_VERSION-"
}

install_zig_tools() {
    have_zig_tools && return 0
    local venv="$TOOLS/venv"
    log "installing ziglang $ZIGLANG_VERSION and cargo-zigbuild $CARGO_ZIGBUILD_VERSION from PyPI into $venv"
    rm -rf "$venv"
    mkdir -p "$TOOLS"
    python3 -m venv "$venv"
    # Pinned by version and by each wheel's sha256: a wheel PyPI serves with another content is refused.
    "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
        -r "$ROOT/scripts/native-requirements.txt" ||
        die "cannot install ziglang $ZIGLANG_VERSION and cargo-zigbuild $CARGO_ZIGBUILD_VERSION (pinned by hash, scripts/native-requirements.txt) from PyPI"
}

install_debian_rustc() {
    have_debian_rustc && return 0
    local want="$DEBIAN_RUSTC_VERSION"
    log "installing rustc-web and libstd-rust-web-dev:arm64 $want from Debian's packages"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        as_root dpkg --add-architecture arm64
    fi
    as_root apt-get update -q </dev/null >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        "rustc-web=$want" "libstd-rust-web-dev:arm64=$want" </dev/null >/dev/null ||
        die "cannot install rustc-web $want (pinned) with libstd-rust-web-dev:arm64 from Debian's packages:" \
            "Debian serves $(apt-cache policy rustc-web 2>/dev/null | sed -n 's/ *Candidate: //p'); pin that in scripts/native.sh"
    have_debian_rustc || die "Debian's arm64 Rust standard library $want is missing (/usr/lib/rustlib/aarch64-unknown-linux-gnu)"
}

install_rustup_toolchain() {
    have_rustup_toolchain && return 0
    log "installing the Rust $RUSTUP_TOOLCHAIN_VERSION toolchain of rust-toolchain.toml with rustup"
    rustup toolchain install "$RUSTUP_TOOLCHAIN_VERSION" --profile minimal -c clippy -c rustfmt >/dev/null ||
        die "cannot install Rust $RUSTUP_TOOLCHAIN_VERSION (pinned in rust-toolchain.toml) with rustup"
}

toolchains() {
    # Two make runs in one checkout install into one folder: the second waits (bounded) for the first.
    mkdir -p "$TOOLS"
    exec 9>"$TOOLS/.install.lock"
    flock -w 900 9 || die "another 'native.sh toolchains' has held $TOOLS/.install.lock for 15 minutes"
    install_rustup_toolchain
    [ "$1" = host ] && return 0
    install_zig_tools
    install_debian_rustc
}

# What a build needs, installed: else one line naming it and the command that installs it.
require() {
    local missing=()
    have_rustup_toolchain || missing+=("Rust $RUSTUP_TOOLCHAIN_VERSION (rustup)")
    if [ "$1" = all ]; then
        have_zig_tools || missing+=("ziglang $ZIGLANG_VERSION and cargo-zigbuild $CARGO_ZIGBUILD_VERSION (in $TOOLS)")
        have_debian_rustc || missing+=("rustc-web and libstd-rust-web-dev:arm64 $DEBIAN_RUSTC_VERSION (Debian)")
    fi
    [ ${#missing[@]} -eq 0 ] || die "not installed: $(IFS=';'; echo "${missing[*]}" | sed 's/;/; /g'); run 'make toolchains'"
}

remap_flags() {
    local cargo_home="${CARGO_HOME:-$HOME/.cargo}"
    printf '%s' "--remap-path-prefix=$ROOT=/cks-state --remap-path-prefix=$cargo_home=/cargo-home"
}

build_one() {
    local platform=$1 out=$2 t rustc_env=()
    t="$(triple "$platform")"
    if [ "$platform" = linux-aarch64 ]; then
        rustc_env=(RUSTC="$DEBIAN_RUSTC")
    fi
    log "building $platform ($t, glibc $GLIBC_FLOOR)"
    (cd "$ROOT" && env PATH="$TOOLS/venv/bin:$PATH" RUSTFLAGS="$(remap_flags)" "${rustc_env[@]}" \
        cargo zigbuild --quiet --locked --release -p "$CRATE" --lib --target "$t.$GLIBC_FLOOR")
    mkdir -p "$out/native/$platform"
    cp "$ROOT/target/$t/release/$BUILT" "$out/native/$platform/$LIB"
}

# This machine's platform, built as the tests build the crate (no zig, no glibc floor).
host_platform() {
    case "$(uname -m)" in
        x86_64) echo linux-x86_64 ;;
        aarch64) echo linux-aarch64 ;;
        *) die "no host build for $(uname -m) (known: ${PLATFORMS[*]})" ;;
    esac
}

build_host() {
    local out=$1 platform
    platform="$(host_platform)"
    log "building $platform for this machine only (no glibc floor: not for the jar that ships)"
    (cd "$ROOT" && cargo build --quiet --locked --release -p "$CRATE" --lib)
    mkdir -p "$out/native/$platform"
    cp "$ROOT/target/release/$BUILT" "$out/native/$platform/$LIB"
}

build_test_hooks() {
    local out=$1
    log "building the test-hooks library for this machine"
    (cd "$ROOT" && cargo build --quiet --locked --release -p "$CRATE" --lib --features test-hooks \
        --target-dir target/test-hooks)
    mkdir -p "$out/test-hooks"
    cp "$ROOT/target/test-hooks/release/$BUILT" "$out/test-hooks/$LIB"
}

write_index() {
    local out=$1 p
    for p in "${PLATFORMS[@]}"; do
        if [ -f "$out/native/$p/$LIB" ]; then echo "$p"; fi
    done >"$out/native/platforms"
}

case "${1:-}" in
    toolchains)
        toolchains all
        ;;
    toolchains-host)
        toolchains host
        ;;
    check)
        require all
        ;;
    build)
        [ $# -eq 2 ] || die "usage: native.sh build OUT_DIR"
        require all
        rm -rf "$2/native" "$2/java" "$2/test-hooks"
        for p in "${PLATFORMS[@]}"; do build_one "$p" "$2"; done
        write_index "$2"
        build_test_hooks "$2"
        ;;
    build-host)
        [ $# -eq 2 ] || die "usage: native.sh build-host OUT_DIR"
        require host
        rm -rf "$2/native" "$2/java" "$2/test-hooks"
        build_host "$2"
        write_index "$2"
        build_test_hooks "$2"
        ;;
    build-one)
        [ $# -eq 3 ] || die "usage: native.sh build-one PLATFORM OUT_DIR"
        triple "$2" >/dev/null
        require all
        build_one "$2" "$3"
        write_index "$3"
        ;;
    *)
        die "usage: native.sh toolchains | toolchains-host | check | build OUT_DIR | build-host OUT_DIR | build-one PLATFORM OUT_DIR"
        ;;
esac
