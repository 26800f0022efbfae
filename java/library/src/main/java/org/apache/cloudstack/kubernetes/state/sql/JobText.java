// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.sql;

import java.util.Base64;

/**
 * Whether an {@code async_job} text column holds ciphertext. From 4.22.1.1 ("improve async job storage"),
 * with database encryption on, CloudStack stores a sensitive command's {@code job_cmd_info} and
 * {@code job_result} through {@code DBEncryptionUtil.encrypt}: one Base64 string (AES-GCM: a 12-byte IV,
 * the text and a 16-byte tag; the legacy PBE: an 8-byte salt and 8-byte blocks), never JSON and never
 * with a space ({@code framework/jobs/.../AsyncJobDataHelper.java}, whose {@code isValidResult} tells
 * them apart the same way). Nothing is read from ciphertext: a job whose parameters are encrypted names
 * no cluster, and reports say "encrypted" instead of printing it.
 */
public final class JobText {
    /** The shortest ciphertext CloudStack writes: the legacy encryptor's salt and one block. */
    private static final int MIN_CIPHERTEXT_BYTES = 16;

    /** What reports print in place of ciphertext. */
    public static final String ENCRYPTED = "encrypted";

    private JobText() {
    }

    /** Whether {@code text} is a value CloudStack's database encryption wrote (null and blank are not). */
    public static boolean isEncrypted(String text) {
        if (text == null) {
            return false;
        }
        String t = text.strip();
        if (t.length() < 24 || t.length() % 4 != 0) {
            return false;
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            boolean base64 = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'
                    || (c == '=' && i >= t.length() - 2);
            if (!base64) {
                return false;
            }
        }
        try {
            return Base64.getDecoder().decode(t).length >= MIN_CIPHERTEXT_BYTES;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The text a report may print: itself, or {@link #ENCRYPTED} in place of ciphertext. */
    public static String printable(String text) {
        return isEncrypted(text) ? ENCRYPTED : text;
    }
}
