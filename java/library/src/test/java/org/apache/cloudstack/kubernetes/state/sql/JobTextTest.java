// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackEncryption;
import org.junit.jupiter.api.Test;

/** Ciphertext as CloudStack's database encryption writes it, told from every text a job row holds in plain. */
class JobTextTest {
    private static final CloudStackEncryption KEY_FILE = new CloudStackEncryption("key file text");

    /** What CloudStack writes in plain: parameters, results (ClassName/object/{json}), errors, ids. */
    private static final List<String> PLAIN = Arrays.asList(null, "", "   ",
            "{\"id\":\"5a3b3d8e-9f1c-4d1e-a2b3-0c1d2e3f4a5b\",\"response\":\"json\",\"ctxUserId\":\"2\"}",
            "org.apache.cloudstack.api.response.KubernetesClusterResponse/kubernetescluster/{\"id\":\"5a3b\"}",
            "job cancelled because of management server restart or shutdown",
            "5a3b3d8e-9f1c-4d1e-a2b3-0c1d2e3f4a5b", "null", "true", "530", "encrypted",
            "QUJDREVGR0g=", "org.apache.cloudstack.api.response.SuccessResponse/null/{\"success\":true}");

    @Test
    void plainTextIsNeverCiphertext() {
        for (String text : PLAIN) {
            assertFalse(JobText.isEncrypted(text), "'" + text + "'");
            assertEquals(text, JobText.printable(text));
        }
    }

    @Test
    void bothEncryptorsWritesAreCiphertextAndNeverPrinted() {
        for (String plain : List.of("{\"id\":\"5a3b3d8e-9f1c-4d1e-a2b3-0c1d2e3f4a5b\"}", "x", "job cancelled because of restart",
                "{\"password\":\"s3cret\",\"id\":\"1\"}".repeat(20))) {
            for (String sealed : List.of(KEY_FILE.encrypt(plain), KEY_FILE.encryptLegacy(plain))) {
                assertTrue(JobText.isEncrypted(sealed), sealed);
                assertTrue(JobText.isEncrypted(" " + sealed + "\n"), "as read from a padded column");
                assertEquals(JobText.ENCRYPTED, JobText.printable(sealed));
            }
            assertEquals(plain, KEY_FILE.decrypt(KEY_FILE.encrypt(plain)));
            assertEquals(plain, KEY_FILE.decryptLegacy(KEY_FILE.encryptLegacy(plain)));
        }
    }
}
