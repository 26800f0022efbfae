// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.dbprops;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jasypt.encryption.pbe.StandardPBEStringEncryptor;
import org.jasypt.exceptions.EncryptionOperationNotPossibleException;

/**
 * Decrypts {@code ENC(...)} values of db.properties as the management server does: V2 first
 * (AES-256-GCM, key = SHA-256 of the management key, Base64 of 12-byte IV | ciphertext | tag),
 * then V1 (jasypt's StandardPBEStringEncryptor defaults, PBEWithMD5AndDES); after the first
 * success it keeps that version. Not thread-safe: one per file read.
 */
final class CloudStackDecryptor {
    enum Version { V2, V1 }

    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final String key;
    private Version chosen;

    CloudStackDecryptor(String key) {
        this.key = key;
    }

    /** The plain text of {@code cipherText} (what stands between ENC( and )); null when no version decrypts it. */
    String decrypt(String cipherText) {
        if (chosen == Version.V2) {
            return v2(cipherText);
        }
        if (chosen == Version.V1) {
            return v1(cipherText);
        }
        String plain = v2(cipherText);
        if (plain != null) {
            chosen = Version.V2;
            return plain;
        }
        plain = v1(cipherText);
        if (plain != null) {
            chosen = Version.V1;
        }
        return plain;
    }

    Version chosen() {
        return chosen;
    }

    private String v2(String cipherText) {
        try {
            byte[] all = Base64.getDecoder().decode(cipherText);
            if (all.length < IV_BYTES + TAG_BITS / 8) {
                return null; // too short for an IV and a tag: not V2
            }
            byte[] aesKey = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(aesKey, "AES"), new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
            return new String(cipher.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | RuntimeException e) {
            return null; // not V2, or not this key (providers also throw unchecked ones)
        }
    }

    private String v1(String cipherText) {
        StandardPBEStringEncryptor jasypt = new StandardPBEStringEncryptor();
        jasypt.setPassword(key);
        try {
            return jasypt.decrypt(cipherText);
        } catch (EncryptionOperationNotPossibleException e) {
            return null;
        } catch (RuntimeException e) {
            return null; // not jasypt's Base64 or block size: not V1 either
        }
    }
}
