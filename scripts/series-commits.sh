#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Every commit of a line's series builds: a reviewer takes the series patch by patch, and git bisect
# stops on any of them. The line's pristine source is committed, then each patch is taken with git am
# and the modules the series patches are compiled with their tests at that commit. The commits before
# the one that brings cks-state are PRs that need no library: their tests run at the last of them, and
# --alone takes each of them alone.
#
#   scripts/series-commits.sh LINE...           (default: every line of cloudstack/lines.tsv)
#   scripts/series-commits.sh --alone LINE...   each commit before the library alone on the pristine
#                                               source: builds, passes CloudStack's checkstyle and its
#                                               modules' tests (the PRs that stand alone,
#                                               cloudstack/PULL-REQUESTS.md)
#
# Needs what `make cloudstack` leaves: CloudStack's modules of the line in the local Maven repository
# and the library jar installed (scripts/cloudstack.sh modules LINE; library). About a minute per
# patch on 2 cores. Work tree: target/cloudstack/<line>/commits (removed after a line that builds).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=shared.sh
source "$ROOT/scripts/shared.sh"
MVN="${CKS_CLOUDSTACK_MVN:-mvn -B -ntp -Dstyle.color=never}"
FLAGS=(-o -q -Dcs.opensaml.version=2.6.4 -Ddownload.plugin.skip=true
    -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true -Drat.skip=true -Dspotbugs.skip=true
    -Dmaven.source.skip=true -Dmaven.gitcommitid.skip=true)
# The modules the series patches (scripts/cloudstack.sh PATCHED_MODULES), built in one reactor.
PLUGIN=plugins/integrations/kubernetes-service
MODULES=framework/cluster,framework/jobs,$PLUGIN
GIT=(git -c user.name=cks-state -c user.email=cks-state@localhost -c commit.gpgsign=false)

# The last patch before the one whose plugin pom depends on cks-state (the whole series if none does).
last_before_library() {
    local patch previous=""
    for patch in "$ROOT/cloudstack/$1"/*.patch; do
        if grep -q "^+.*<artifactId>cks-state</artifactId>" "$patch"; then break; fi
        previous="$patch"
    done
    echo "$previous"
}

# The modules built at the commit checked out in SRC with GOAL and FLAGS...: prints the outcome under
# LABEL, keeps LOG only when it fails (with its first compiler errors or failed tests), and then returns 1.
build_commit() {
    local src="$1" log="$2" label="$3" what="$4" goal="$5"
    shift 5
    if (cd "$src" && $MVN "$@" -pl "$MODULES" "$goal") > "$log" 2>&1; then
        echo "series-commits: $label: $what"
        rm -f "$log"
        return 0
    fi
    echo "series-commits: $label: DOES NOT BUILD OR PASS (log: $log)"
    grep -E "ERROR.*\.java|Tests run:.*Fail" "$log" | head -5 || true
    return 1
}

# The line's source as released, extracted into SRC and committed: the commit every patch is taken onto.
pristine_repository() {
    "$ROOT/scripts/cloudstack.sh" extract "$1" "$2"
    "${GIT[@]}" -C "$2" init -q && "${GIT[@]}" -C "$2" add -A && "${GIT[@]}" -C "$2" commit -qm "$1 as released"
}

check_line() {
    local line="$1" src patch goal what n=0 failed=0 start=$SECONDS last_free
    src="$ROOT/target/cloudstack/$line/commits"
    last_free="$(last_before_library "$line")"
    pristine_repository "$line" "$src"
    for patch in "$ROOT/cloudstack/$line"/*.patch; do
        n=$((n + 1))
        "${GIT[@]}" -C "$src" am -q "$patch" || { echo "series-commits: $line: $(basename "$patch") does not apply"; exit 1; }
        # The commits before the library are PRs that need none: at the last of them their tests run
        # together (each alone: --alone).
        goal=test-compile what=builds
        if [ "$patch" = "$last_free" ]; then goal=test what="builds, its modules' tests pass"; fi
        build_commit "$src" "$src.$n.log" "$line $(basename "$patch")" "$what" "$goal" "${FLAGS[@]}" || failed=$((failed + 1))
    done
    echo "series-commits: $line: $((n - failed)) of $n commits build ($((SECONDS - start)) s)"
    [ "$failed" -eq 0 ] && rm -rf "$src"
    return "$((failed > 0))"
}

# Each patch before the one that brings cks-state, taken alone onto the pristine source (every build
# output removed first, so no class of another patch is left), with CloudStack's checkstyle and its
# modules' tests, as its pull request would be built.
ALONE_FLAGS=()
for flag in "${FLAGS[@]}"; do
    [ "$flag" = -Dcheckstyle.skip=true ] || ALONE_FLAGS+=("$flag")
done
alone_line() {
    local line="$1" src pristine patch n=0 failed=0 start=$SECONDS last_free
    src="$ROOT/target/cloudstack/$line/alone"
    last_free="$(last_before_library "$line")"
    [ -n "$last_free" ] || { echo "series-commits: $line: no commit before the library"; return 0; }
    pristine_repository "$line" "$src"
    pristine="$(git -C "$src" rev-parse HEAD)"
    for patch in "$ROOT/cloudstack/$line"/*.patch; do
        git -C "$src" reset -q --hard "$pristine" && git -C "$src" clean -qfdx
        n=$((n + 1))
        if ! "${GIT[@]}" -C "$src" am -q "$patch"; then
            echo "series-commits: $line $(basename "$patch") does not apply alone"
            failed=$((failed + 1))
            git -C "$src" am --abort
        elif ! build_commit "$src" "$src.alone.$n.log" "$line $(basename "$patch") alone" \
                "builds, passes CloudStack's checkstyle and its modules' tests" test "${ALONE_FLAGS[@]}"; then
            failed=$((failed + 1))
        fi
        [ "$patch" != "$last_free" ] || break
    done
    echo "series-commits: $line: $((n - failed)) of $n commits before the library stand alone ($((SECONDS - start)) s)"
    [ "$failed" -eq 0 ] && rm -rf "$src"
    return "$((failed > 0))"
}

mode=check_line
if [ "${1:-}" = "--alone" ]; then
    mode=alone_line
    shift
fi
rc=0
for line in ${@:-$(lines)}; do
    "$mode" "$line" || rc=1
done
exit "$rc"
