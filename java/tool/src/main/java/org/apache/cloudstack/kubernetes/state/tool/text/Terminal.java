// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.text;

import java.util.Locale;

/**
 * A field of a text report as a terminal may show it: what a tenant or the database set (a cluster's
 * name, a job's result) can hold escape sequences that repaint the operator's screen, or line breaks
 * that forge report lines. Every control character (C0, DEL, C1), and the characters that reorder
 * text (bidirectional overrides and isolates), are written as {@code \\xNN} / {@code \\uNNNN}.
 */
public final class Terminal {
    private Terminal() {
    }

    /** A character a terminal acts on rather than shows: a control character (C0, DEL, C1), or one that reorders text. */
    public static boolean actsOn(char ch) {
        boolean control = ch < 0x20 || ch >= 0x7f && ch <= 0x9f;
        boolean reorders = ch >= 0x202a && ch <= 0x202e || ch >= 0x2066 && ch <= 0x2069 || ch == 0x200e || ch == 0x200f;
        return control || reorders;
    }

    /** {@code s} with its control and reordering characters escaped; null as "null". */
    public static String field(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (actsOn(ch) || ch == '\\') {
                if (out == null) {
                    out = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                out.append(ch == '\\' ? "\\\\" : ch <= 0xff ? String.format(Locale.ROOT, "\\x%02x", (int) ch)
                        : String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else if (out != null) {
                out.append(ch);
            }
        }
        return out == null ? s : out.toString();
    }
}
