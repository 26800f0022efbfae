#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Small files with one job each: fails on a main source file (the core, the glue, the build's
# generator, the library and the tool, the fuzz contracts, the scripts) over the line limit, naming
# each one. Tests are not counted.
set -euo pipefail
LIMIT=${CKS_MAX_SOURCE_LINES:-350}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
over=0
while IFS= read -r file; do
    lines=$(wc -l <"$file")
    if [ "$lines" -gt "$LIMIT" ]; then
        echo "check-file-sizes: $file has $lines lines (limit $LIMIT): split it by job" >&2
        over=1
    fi
done < <(git ls-files --cached --others --exclude-standard build.rs 'build_support/*.rs' 'src/*.rs' 'src/*/*.rs' \
    'jni/build.rs' 'jni/build_support/*.rs' 'jni/src/*.rs' 'java/*/src/main/*.java' 'fuzz/*.rs' 'scripts/*.sh' 'scripts/*.py' 'bin/*' '.ci/*')
[ "$over" -eq 0 ] && echo "check-file-sizes: no main source file over $LIMIT lines"
exit "$over"
