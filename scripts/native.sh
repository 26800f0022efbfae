#!/usr/bin/env bash
# Builds libcks_state.so for every platform the jar carries, with a glibc 2.17 floor, from
# registry packages only:
#
#   linux-x86_64    rustup's pinned toolchain (rust-toolchain.toml), linked by zig through
#                   cargo-zigbuild for x86_64-unknown-linux-gnu.2.17
#   linux-aarch64   Debian's rustc-web with its arm64 standard library (libstd-rust-web-dev:arm64),
#                   linked by the same zig for aarch64-unknown-linux-gnu.2.17
#
#   scripts/native.sh toolchains      install what the builds need (idempotent)
#   scripts/native.sh build OUT       build both and lay out OUT/native/<platform>/libcks_state.so
#                                     and OUT/native/platforms (what the jar carries, one a line), and
#                                     OUT/java/: the Java side of the code table (NativeCodes.java),
#                                     which build.rs generates from spec/state-machine.tsv
#   scripts/native.sh build-one PLATFORM OUT   one platform only (quick checks)
#
# `build` also builds OUT/test-hooks/libcks_state.so for this machine with the cargo feature
# test-hooks (NativeTestHooks: the JNI floor, a forced panic): the tests and benchmarks that need
# those load it; the jar never carries it.
#
# zig and cargo-zigbuild come from PyPI into .toolchains/ (gitignored, kept between builds);
# rustc-web and the arm64 standard library from Debian's packages (apt, as root). Every version
# is pinned below. Paths of this checkout and of CARGO_HOME are remapped so that the library
# carries no home paths and two checkouts of one commit build the same bytes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${CKS_TOOLCHAINS_DIR:-$ROOT/.toolchains}"
ZIGLANG_VERSION=0.15.2
CARGO_ZIGBUILD_VERSION=0.24.1
# Debian bookworm-security; its rustc and arm64 standard library must be the same version.
DEBIAN_RUSTC_VERSION=1.96.0+dfsg1-1~deb12u2
DEBIAN_RUSTC=/usr/bin/rustc
GLIBC_FLOOR=2.17
LIB=libcks_state.so
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

zig_tools() {
    local venv="$TOOLS/venv"
    if [ -x "$venv/bin/cargo-zigbuild" ] &&
        "$venv/bin/cargo-zigbuild" --version 2>/dev/null | grep -qxF "cargo-zigbuild $CARGO_ZIGBUILD_VERSION" &&
        [ "$("$venv/bin/python" -m ziglang version 2>/dev/null)" = "$ZIGLANG_VERSION" ]; then
        return 0
    fi
    log "installing ziglang $ZIGLANG_VERSION and cargo-zigbuild $CARGO_ZIGBUILD_VERSION from PyPI into $venv"
    rm -rf "$venv"
    mkdir -p "$TOOLS"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        "ziglang==$ZIGLANG_VERSION" "cargo-zigbuild==$CARGO_ZIGBUILD_VERSION"
}

debian_rustc() {
    local want="$DEBIAN_RUSTC_VERSION"
    if [ "$(dpkg-query -W -f='${Version}' rustc-web 2>/dev/null)" = "$want" ] &&
        [ "$(dpkg-query -W -f='${Version}' libstd-rust-web-dev:arm64 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    log "installing rustc-web and libstd-rust-web-dev:arm64 $want from Debian's packages"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        as_root dpkg --add-architecture arm64
    fi
    as_root apt-get update -q </dev/null >/dev/null
    if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        "rustc-web=$want" "libstd-rust-web-dev:arm64=$want" </dev/null >/dev/null; then
        # Debian's security archive keeps only its newest build: take it, and say so (the aarch64
        # library is then not byte-identical to one built with the pinned compiler).
        log "rustc-web $want is not served any more; installing the newest rustc-web with its arm64 library"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
            rustc-web libstd-rust-web-dev:arm64 </dev/null >/dev/null ||
            die "cannot install rustc-web and libstd-rust-web-dev:arm64 from Debian's packages"
    fi
    [ -d /usr/lib/rustlib/aarch64-unknown-linux-gnu/lib ] ||
        die "Debian's arm64 Rust standard library is missing (/usr/lib/rustlib/aarch64-unknown-linux-gnu)"
}

toolchains() {
    zig_tools
    debian_rustc
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
        cargo zigbuild --quiet --locked --release --lib --target "$t.$GLIBC_FLOOR")
    mkdir -p "$out/native/$platform"
    cp "$ROOT/target/$t/release/$LIB" "$out/native/$platform/$LIB"
    # Every build generates the same Java constants; the copy keeps the newest.
    mkdir -p "$out/java"
    cp -R "$ROOT/target/$t/release/generated-java/." "$out/java/"
}

build_test_hooks() {
    local out=$1
    log "building the test-hooks library for this machine"
    (cd "$ROOT" && cargo build --quiet --locked --release --lib --features test-hooks --target-dir target/test-hooks)
    mkdir -p "$out/test-hooks"
    cp "$ROOT/target/test-hooks/release/$LIB" "$out/test-hooks/$LIB"
}

write_index() {
    local out=$1 p
    for p in "${PLATFORMS[@]}"; do
        [ -f "$out/native/$p/$LIB" ] && echo "$p"
    done >"$out/native/platforms"
}

case "${1:-}" in
    toolchains)
        toolchains
        ;;
    build)
        [ $# -eq 2 ] || die "usage: native.sh build OUT_DIR"
        toolchains
        rm -rf "$2/native" "$2/java" "$2/test-hooks"
        for p in "${PLATFORMS[@]}"; do build_one "$p" "$2"; done
        write_index "$2"
        build_test_hooks "$2"
        ;;
    build-one)
        [ $# -eq 3 ] || die "usage: native.sh build-one PLATFORM OUT_DIR"
        triple "$2" >/dev/null
        if [ "$2" = linux-aarch64 ]; then toolchains; else zig_tools; fi
        build_one "$2" "$3"
        write_index "$3"
        ;;
    *)
        die "usage: native.sh toolchains | build OUT_DIR | build-one PLATFORM OUT_DIR"
        ;;
esac
