#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
#
# Every source file the repository tracks carries the project's license header (an SPDX line naming
# Apache-2.0) in its first lines: Rust, Java, scripts, SQL, the spec, the build files. Fails naming
# each file without one. Exempt: documents, data, patches to CloudStack (their files carry
# CloudStack's own header), license texts, and generated data; listed below.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
missing=0
checked=0
while IFS= read -r file; do
    case "$file" in
        *.md|*.patch|*.lock|*.proptest-regressions|*.schedules|.gitignore|*/.gitignore) continue ;;
        LICENSE|NOTICE|java/tool/src/main/legal/NOTICE|java/.mvn/maven.config) continue ;;
        java/library/src/main/resources/META-INF/THIRD-PARTY-NATIVE.txt|java/tool/src/main/resources/META-INF/third-party/*) continue ;;
    esac
    checked=$((checked + 1))
    if ! head -n 6 "$file" | grep -q "SPDX-License-Identifier: Apache-2.0"; then
        echo "check-license-headers: $file has no license header (SPDX-License-Identifier: Apache-2.0 in its first lines)" >&2
        missing=$((missing + 1))
    fi
done < <(git ls-files --cached --others --exclude-standard)
[ "$missing" -eq 0 ] || { echo "check-license-headers: $missing of $checked file(s) without a license header" >&2; exit 1; }
echo "check-license-headers: all $checked source files carry the license header"
