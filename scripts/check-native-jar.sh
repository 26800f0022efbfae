#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Checks what a jar carries natively; fails on the first thing wrong:
# - native/platforms lists exactly linux-x86_64 and linux-aarch64, each with its libcks_state.so;
# - each library's ELF machine matches its folder, and it needs no GLIBC_ version above 2.17;
# - no library carries a path of the build machine (this checkout, CARGO_HOME, HOME), nor a test
#   hook (the NativeTestHooks methods exist only in the test-hooks build);
# - the manifest has Enable-Native-Access: ALL-UNNAMED.
#
#   scripts/check-native-jar.sh JAR...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXPECTED_PLATFORMS=$'linux-x86_64\nlinux-aarch64'
GLIBC_FLOOR=2.17
LIB=libcks_state.so

fail() { echo "check-native-jar: $jar: $*" >&2; exit 1; }

elf_machine() {
    case "$1" in
        linux-x86_64 | linux-x86_64-musl) echo 'Advanced Micro Devices X86-64' ;;
        linux-aarch64 | linux-aarch64-musl) echo 'AArch64' ;;
        *) echo "unknown platform $1" ;;
    esac
}

[ $# -ge 1 ] || { echo "usage: check-native-jar.sh JAR..." >&2; exit 2; }
for jar in "$@"; do
    [ -f "$jar" ] || fail "no such jar"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    unzip -q -o "$jar" 'native/*' 'META-INF/MANIFEST.MF' -d "$work" || fail "cannot unzip native/ and the manifest"

    grep -qx 'Enable-Native-Access: ALL-UNNAMED' <<< "$(tr -d '\r' <"$work/META-INF/MANIFEST.MF")" ||
        fail "the manifest lacks Enable-Native-Access: ALL-UNNAMED"

    [ -f "$work/native/platforms" ] || fail "no native/platforms index"
    [ "$(cat "$work/native/platforms")" = "$EXPECTED_PLATFORMS" ] ||
        fail "native/platforms lists [$(tr '\n' ' ' <"$work/native/platforms")], expected [$(echo $EXPECTED_PLATFORMS)]"
    found="$(cd "$work/native" && find . -type f -name '*.so' | sed 's|^\./||' | sort)"
    expected="$(echo "$EXPECTED_PLATFORMS" | sed "s|\$|/$LIB|" | sort)"
    [ "$found" = "$expected" ] || fail "carries [$(echo $found)], expected [$(echo $expected)]"

    while IFS= read -r platform; do
        so="$work/native/$platform/$LIB"
        machine="$(readelf -h "$so" | sed -n 's/^ *Machine: *//p')"
        [ "$machine" = "$(elf_machine "$platform")" ] ||
            fail "native/$platform/$LIB is an ELF for '$machine', not $(elf_machine "$platform")"
        hooks="$(readelf --dyn-syms --wide "$so" | grep -o 'Java_[A-Za-z0-9_]*NativeTestHooks[A-Za-z0-9_]*' || true)"
        [ -z "$hooks" ] || fail "native/$platform/$LIB exports test hooks: $(echo $hooks)"
        newest="$(readelf -V --wide "$so" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n1)"
        [ -n "$newest" ] || fail "native/$platform/$LIB requires no GLIBC_ version at all: not a glibc build?"
        [ "$(printf '%s\n%s\n' "$newest" "$GLIBC_FLOOR" | sort -V | tail -n1)" = "$GLIBC_FLOOR" ] ||
            fail "native/$platform/$LIB requires GLIBC_$newest, above the $GLIBC_FLOOR floor: $(readelf -V --wide "$so" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tr '\n' ' ')"
        ! grep -q GLIBC_PRIVATE <<< "$(readelf -V --wide "$so")" || fail "native/$platform/$LIB requires GLIBC_PRIVATE"
        exported="$(readelf --dyn-syms --wide "$so" | grep -c ' Java_org_apache_cloudstack_kubernetes_state_' || true)"
        [ "$exported" -gt 0 ] || fail "native/$platform/$LIB exports no JNI method"
        for path in "$ROOT" "${CARGO_HOME:-$HOME/.cargo}" "$HOME"; do
            if grep -qaF "$path/" "$so"; then
                fail "native/$platform/$LIB carries the build machine's path $path/"
            fi
        done
        echo "check-native-jar: $(basename "$jar"): native/$platform/$LIB: $machine, needs glibc $newest (floor $GLIBC_FLOOR), $exported JNI methods, no test hooks, no build paths"
    done <"$work/native/platforms"
    rm -rf "$work"
    trap - EXIT
done
