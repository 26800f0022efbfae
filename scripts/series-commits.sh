#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Every commit of a line's series builds: a reviewer takes the series patch by patch, and git bisect
# stops on any of them. The line's pristine source is committed, then each patch is taken with git am
# and the modules the series patches are compiled with their tests at that commit. The commits before
# the one that brings cks-state stand alone as PRs: their tests run as well.
#
#   scripts/series-commits.sh LINE...   (default: every line of cloudstack/lines.tsv)
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

check_line() {
    local line="$1" src patch goal what n=0 failed=0 start=$SECONDS
    src="$ROOT/target/cloudstack/$line/commits"
    "$ROOT/scripts/cloudstack.sh" extract "$line" "$src"
    "${GIT[@]}" -C "$src" init -q && "${GIT[@]}" -C "$src" add -A && "${GIT[@]}" -C "$src" commit -qm "$line as released"
    for patch in "$ROOT/cloudstack/$line"/*.patch; do
        n=$((n + 1))
        "${GIT[@]}" -C "$src" am -q "$patch" || { echo "series-commits: $line: $(basename "$patch") does not apply"; exit 1; }
        # Until the library arrives, a commit is a PR that stands alone: its tests run too.
        goal=test what="builds, its modules' tests pass"
        if grep -q "<artifactId>cks-state</artifactId>" "$src/$PLUGIN/pom.xml"; then goal=test-compile what=builds; fi
        if (cd "$src" && $MVN "${FLAGS[@]}" -pl "$MODULES" "$goal") > "$src.$n.log" 2>&1; then
            echo "series-commits: $line $(basename "$patch"): $what"
            rm -f "$src.$n.log"
        else
            failed=$((failed + 1))
            echo "series-commits: $line $(basename "$patch"): DOES NOT BUILD OR PASS (log: $src.$n.log)"
            grep -E "ERROR.*\.java" "$src.$n.log" | head -5
        fi
    done
    echo "series-commits: $line: $((n - failed)) of $n commits build ($((SECONDS - start)) s)"
    [ "$failed" -eq 0 ] && rm -rf "$src"
    return "$((failed > 0))"
}

rc=0
for line in ${@:-$(lines)}; do
    check_line "$line" || rc=1
done
exit "$rc"
