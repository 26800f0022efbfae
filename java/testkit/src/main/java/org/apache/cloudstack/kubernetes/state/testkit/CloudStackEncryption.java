// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.testkit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * CloudStack's database encryption as its management server writes a value (utils/.../crypt/
 * CloudStackEncryptor.java): V2, the default, is AeadBase64Encryptor (Tink's AesGcmJce keyed by
 * SHA-256 of the key file's text, no associated data: Base64 of a 12-byte IV, the ciphertext and a
 * 16-byte tag); V1 is LegacyBase64Encryptor (jasypt's PBEWithMD5AndDES, 1000 iterations: Base64 of an
 * 8-byte salt and the ciphertext). From 4.22.1.1 a sensitive job's {@code job_cmd_info} and
 * {@code job_result} are written so (framework/jobs/.../AsyncJobDataHelper.java).
 */
public final class CloudStackEncryption {
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int SALT_BYTES = 8;
    private static final int PBE_ITERATIONS = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] aesKey;
    private final char[] password;

    /** The encryption of a database whose key (the management server's key file) is {@code key}. */
    public CloudStackEncryption(String key) {
        try {
            this.aesKey = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
        this.password = key.toCharArray();
    }

    /** {@code plain} as CloudStack's V2 encryptor writes it. */
    public String encrypt(String plain) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey, "AES"), new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = c.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            byte[] out = Arrays.copyOf(iv, IV_BYTES + sealed.length);
            System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM", e);
        }
    }

    /** What CloudStack's V2 encryptor reads back from {@code encrypted}. */
    public String decrypt(String encrypted) {
        byte[] all = Base64.getDecoder().decode(encrypted);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(aesKey, "AES"), new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
            return new String(c.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM", e);
        }
    }

    /** {@code plain} as CloudStack's V1 (legacy) encryptor writes it. */
    public String encryptLegacy(String plain) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        try {
            Cipher c = Cipher.getInstance("PBEWithMD5AndDES");
            c.init(Cipher.ENCRYPT_MODE, SecretKeyFactory.getInstance("PBEWithMD5AndDES").generateSecret(new PBEKeySpec(password)),
                    new PBEParameterSpec(salt, PBE_ITERATIONS));
            byte[] sealed = c.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            byte[] out = Arrays.copyOf(salt, SALT_BYTES + sealed.length);
            System.arraycopy(sealed, 0, out, SALT_BYTES, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBEWithMD5AndDES", e);
        }
    }

    /** What CloudStack's V1 (legacy) encryptor reads back from {@code encrypted}. */
    public String decryptLegacy(String encrypted) {
        byte[] all = Base64.getDecoder().decode(encrypted);
        try {
            Cipher c = Cipher.getInstance("PBEWithMD5AndDES");
            c.init(Cipher.DECRYPT_MODE, SecretKeyFactory.getInstance("PBEWithMD5AndDES").generateSecret(new PBEKeySpec(password)),
                    new PBEParameterSpec(Arrays.copyOf(all, SALT_BYTES), PBE_ITERATIONS));
            return new String(c.doFinal(all, SALT_BYTES, all.length - SALT_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBEWithMD5AndDES", e);
        }
    }
}
