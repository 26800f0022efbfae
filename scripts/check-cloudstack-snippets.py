#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The docs' snippets of CloudStack's patched plugin are its code: every ```java block preceded by
<!-- snippet: cloudstack:PATH#DECLARATION --> equals, line for line, the member of PATH (in the patched
source tree) whose declaration line contains DECLARATION, with its Javadoc and annotations, indentation
of a class member removed. Usage: check-cloudstack-snippets.py [--write] PATCHED_SOURCE DOC...
(--write pastes each member into its doc instead of checking)."""
import re
import sys

MARKER = re.compile(r"<!-- snippet: cloudstack:([\w/.-]+\.java)#(.+?) -->")


def member(path, declaration):
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        if not (re.match(r"    \S", line) and not line.lstrip().startswith(("//", "*", "/*")) and declaration in line):
            continue
        head = i  # a declaration may go on over lines indented further, up to its "{"
        while not lines[head].rstrip().endswith("{") and not lines[head].rstrip().endswith(";") \
                and head + 1 < len(lines) and lines[head + 1].startswith("     "):
            head += 1
        if lines[head].rstrip().endswith("{"):
            start = i
            while start > 0 and re.match(r"    @\w", lines[start - 1]):
                start -= 1
            if start > 0 and lines[start - 1].strip().startswith("/**") and lines[start - 1].strip().endswith("*/"):
                start -= 1
            elif start > 0 and lines[start - 1].strip() == "*/":
                while not lines[start - 1].strip().startswith("/**"):
                    start -= 1
                start -= 1
            end = next(j for j in range(i, len(lines)) if lines[j] == "    }")
            return "\n".join(l[4:] for l in lines[start:end + 1]) + "\n"
    return None


def main():
    write = sys.argv[1] == "--write"
    args = sys.argv[2:] if write else sys.argv[1:]
    source, docs = args[0], args[1:]
    failures, checked = [], 0
    for doc in docs:
        lines = open(doc).read().split("\n")
        out, i = [], 0
        while i < len(lines):
            out.append(lines[i])
            m = MARKER.fullmatch(lines[i].strip())
            if not m:
                i += 1
                continue
            j = i + 1
            while j < len(lines) and lines[j].strip() == "":
                j += 1
            if j == len(lines) or lines[j].strip() != "```java":
                failures.append(f"{doc}:{i + 1}: the marker is not followed by a ```java block")
                i += 1
                continue
            k = next(k for k in range(j + 1, len(lines)) if lines[k].strip() == "```")
            shown = "\n".join(lines[j + 1:k]) + "\n"
            expected = member(f"{source}/{m.group(1)}", m.group(2))
            checked += 1
            if expected is None:
                failures.append(f"{doc}:{i + 1}: no member declared with '{m.group(2)}' in {m.group(1)}")
            elif expected != shown and not write:
                failures.append(f"{doc}:{j + 1}: differs from {m.group(1)}#{m.group(2)} of the patched plugin:"
                                f" paste it into the doc (--write)\n{expected}")
            body = expected.rstrip("\n").split("\n") if write and expected is not None else lines[j + 1:k]
            out.extend(lines[i + 1:j + 1] + body + [lines[k]])
            i = k + 1
        if write:
            open(doc, "w").write("\n".join(out))
    for f in failures:
        print("check-cloudstack-snippets: " + f, file=sys.stderr)
    if failures or checked == 0:
        sys.exit(1)
    print(f"check-cloudstack-snippets: {checked} snippet(s) are the patched plugin's code")


if __name__ == "__main__":
    main()
