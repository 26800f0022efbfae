#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# `make mutants`: cargo-mutants over the core's decision files. Fails when a mutant
# survives that mutants/equivalent.txt does not explain. Takes tens of minutes: not in `make test`.
#
# The mutants are tested by the cargo suite without tests/deterministic_sim.rs (a 20 s
# simulation per mutant); a mutant only that simulation would catch shows up as missed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION=27.1.0
TOOLS="${CKS_TOOLCHAINS_DIR:-$ROOT/.toolchains}/cargo-mutants"
# Every file of the core that decides (the table is generated data).
FILES=(src/machine.rs src/mode.rs src/write/mod.rs src/write/shape.rs src/upstream_write.rs src/entry.rs src/scaling.rs src/completion.rs src/reconcile.rs
    src/recovery/mod.rs src/recovery/owners.rs src/transition.rs src/job_marks.rs src/vms.rs)
# MUTANTS_FILES="src/a.rs src/b.rs" runs those only (a quicker look at one part).
if [ -n "${MUTANTS_FILES:-}" ]; then read -r -a FILES <<<"$MUTANTS_FILES"; fi
EXPLAINED="$ROOT/mutants/equivalent.txt"
OUT="$ROOT/target/mutants"

if ! "$TOOLS/bin/cargo-mutants" mutants --version 2>/dev/null | grep -qF "$VERSION"; then
    echo "mutants.sh: installing cargo-mutants $VERSION from crates.io into $TOOLS" >&2
    cargo install --quiet cargo-mutants --version "$VERSION" --locked --root "$TOOLS"
fi

tests=(--lib)
for t in "$ROOT"/tests/*.rs; do
    name="$(basename "$t" .rs)"
    [ "$name" = deterministic_sim ] || tests+=(--test "$name")
done
file_args=()
for f in "${FILES[@]}"; do file_args+=(--file "$f"); done

rm -rf "$OUT"
mkdir -p "$OUT"
cd "$ROOT"
status=0
PATH="$TOOLS/bin:$PATH" cargo mutants --no-shuffle --jobs "${MUTANTS_JOBS:-2}" --timeout 300 \
    --output "$OUT" "${file_args[@]}" -- "${tests[@]}" || status=$?
# 0: all caught; 2: some missed; 3: some timed out; anything else is a failure of the run itself.
case $status in 0 | 2 | 3) ;; *) echo "mutants.sh: cargo mutants failed (exit $status)" >&2; exit 1 ;; esac

results="$OUT/mutants.out"
count() { if [ -f "$results/$1" ]; then grep -c . "$results/$1" || true; else echo 0; fi; }
# A mutant is known by its file and its mutation, not its line: a new line above it moves it.
without_position() { sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /'; }
unexplained=()
while IFS= read -r mutant; do
    [ -n "$mutant" ] || continue
    if ! grep -qxF "$(without_position <<<"$mutant")" <(grep -v '^#' "$EXPLAINED" | cut -f1 | without_position); then
        unexplained+=("$mutant")
    fi
done < <(cat "$results/missed.txt" "$results/timeout.txt" 2>/dev/null || true)
echo "mutants: caught $(count caught.txt), unviable $(count unviable.txt), missed $(count missed.txt)," \
    "timeout $(count timeout.txt); explained as equivalent: $(grep -vc '^#' "$EXPLAINED" || true)"
if [ ${#unexplained[@]} -gt 0 ]; then
    echo "mutants: ${#unexplained[@]} survived without an explanation in mutants/equivalent.txt:" >&2
    printf '  %s\n' "${unexplained[@]}" >&2
    exit 1
fi
echo "mutants: no unexplained survivor"
