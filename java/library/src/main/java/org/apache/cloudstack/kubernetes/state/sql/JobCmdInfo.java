// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.sql;

/**
 * A tiny, tolerant reader of {@code async_job.job_cmd_info}: the JSON object of an API command's
 * parameters. For the CKS cluster commands its top-level {@code "id"} member is the cluster's
 * uuid. Only top-level members are looked at (a nested object or a JSON text inside a string,
 * such as {@code ctxDetails}, never matches), string escapes are decoded, and anything malformed
 * (not an object, truncated, bad escapes, null, non-string value) gives {@code null}: this class
 * never throws.
 */
public final class JobCmdInfo {
    /** Longest value accepted as a uuid ({@code kubernetes_cluster.uuid} is varchar(40)). */
    public static final int MAX_UUID_LENGTH = 40;

    private final String text;
    private int pos;

    private JobCmdInfo(String text) {
        this.text = text;
    }

    /**
     * The cluster uuid of a CKS cluster command: the top-level string member "id", or, when that is
     * a number (a create command's database id, {@code ApiServer.queueCommand}), the member "uuid";
     * null when neither gives one.
     */
    public static String clusterUuid(String jobCmdInfo) {
        String id = uuidShaped(topLevelString(jobCmdInfo, "id"));
        if (id != null && !isDigits(id)) {
            return id;
        }
        String uuid = uuidShaped(topLevelString(jobCmdInfo, "uuid"));
        return id != null && uuid != null && !isDigits(uuid) ? uuid : null;
    }

    private static String uuidShaped(String value) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        return v.isEmpty() || v.length() > MAX_UUID_LENGTH ? null : v;
    }

    private static boolean isDigits(String s) {
        return s.chars().allMatch(ch -> ch >= '0' && ch <= '9');
    }

    /**
     * The value of a top-level string member of a JSON object, or null when the text is null, not
     * an object, malformed before the member, lacks it, or the member's value is not a string. The
     * first occurrence of a duplicated key wins.
     */
    public static String topLevelString(String json, String key) {
        if (json == null || key == null) {
            return null;
        }
        try {
            return new JobCmdInfo(json).find(key);
        } catch (RuntimeException malformed) {
            // Defensive: the reader returns null on every malformation it knows; anything else
            // (an index error on truncated text) is malformed JSON too.
            return null;
        }
    }

    private String find(String key) {
        skipWs();
        if (pos < text.length() && text.charAt(pos) == '\uFEFF') {
            pos++;
            skipWs();
        }
        if (!eat('{')) {
            return null;
        }
        skipWs();
        if (eat('}')) {
            return null;
        }
        while (true) {
            skipWs();
            String name = readString();
            if (name == null) {
                return null;
            }
            skipWs();
            if (!eat(':')) {
                return null;
            }
            skipWs();
            if (pos >= text.length()) {
                return null;
            }
            if (name.equals(key)) {
                return text.charAt(pos) == '"' ? readString() : null;
            }
            if (!skipValue()) {
                return null;
            }
            skipWs();
            if (eat(',')) {
                continue;
            }
            return null; // '}' (member not found) or malformed
        }
    }

    private void skipWs() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                break;
            }
        }
    }

    private boolean eat(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    /** Reads a JSON string at pos (decoding escapes), or returns null when malformed. */
    private String readString() {
        if (!eat('"')) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) {
                return null;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (pos + 4 > text.length()) {
                        return null;
                    }
                    int cp = 0;
                    for (int i = 0; i < 4; i++) {
                        int d = Character.digit(text.charAt(pos++), 16);
                        if (d < 0) {
                            return null;
                        }
                        cp = cp * 16 + d;
                    }
                    out.append((char) cp);
                    break;
                default:
                    return null;
            }
        }
        return null; // unterminated
    }

    /** Skips one JSON value of any kind (nested values iteratively); false when malformed. */
    private boolean skipValue() {
        int depth = 0;
        do {
            skipWs();
            if (pos >= text.length()) {
                return false;
            }
            char c = text.charAt(pos);
            if (c == '"') {
                if (readString() == null) {
                    return false;
                }
            } else if (c == '{' || c == '[') {
                pos++;
                depth++;
                continue;
            } else if (c == '}' || c == ']') {
                if (depth == 0) {
                    return false;
                }
                pos++;
                depth--;
            } else if (c == ',' || c == ':') {
                if (depth == 0) {
                    return false;
                }
                pos++;
                continue;
            } else {
                int start = pos;
                while (pos < text.length() && "{}[],: \t\r\n\"".indexOf(text.charAt(pos)) < 0) {
                    pos++;
                }
                if (pos == start) {
                    return false;
                }
            }
        } while (depth > 0);
        return true;
    }
}
