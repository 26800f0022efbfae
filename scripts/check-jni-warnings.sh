#!/usr/bin/env bash
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Fails when a test run under -Xcheck:jni printed a JNI warning or a native panic's report (a panic
# must reach Java as an exception only), or crashed a JVM.
# Usage: check-jni-warnings.sh BUILD_LOG REPORTS_DIR...
set -u
log=$1; shift
pattern='WARNING in native method|WARNING: JNI|FATAL ERROR in native method|JNI DETECTED ERROR|thread .* panicked at'
found=0
files=("$log")
for dir in "$@"; do
  [ -d "$dir" ] && while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -type f \( -name '*-output.txt' -o -name '*.dumpstream' -o -name '*.txt' \))
done
for f in "${files[@]}"; do
  if grep -Eq "$pattern" "$f" 2>/dev/null; then
    grep -EHn "$pattern" "$f" | head -5
    found=1
  fi
done
if find java -maxdepth 3 -name 'hs_err_pid*.log' 2>/dev/null | grep -q .; then
  echo "JVM crash reports found:"; find java -maxdepth 3 -name 'hs_err_pid*.log'; found=1
fi
if [ "$found" -ne 0 ]; then
  echo "FAIL: JNI warnings, native panic reports or JVM crashes in the test output (see above)" >&2
  exit 1
fi
echo "JNI check: no JNI warning in ${#files[@]} output files"
