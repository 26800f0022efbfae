// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.dbprops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.jasypt.encryption.pbe.StandardPBEStringEncryptor;
import org.junit.jupiter.api.Test;

/** ENC(...) values as the management server decrypts them. */
class CloudStackDecryptorTest {
    @Test
    void v2TheVectorOfCloudStacksOwnTests() {
        CloudStackDecryptor d = new CloudStackDecryptor("managementkey");
        assertEquals("encthis", d.decrypt("iYVsCZXiGiC6SzZLMNBvBL93hoUpntxkuRjyaqC8L+JYKXw="));
        assertEquals(CloudStackDecryptor.Version.V2, d.chosen());
        assertNull(new CloudStackDecryptor("anotherkey").decrypt("iYVsCZXiGiC6SzZLMNBvBL93hoUpntxkuRjyaqC8L+JYKXw="));
    }

    @Test
    void v1AFixedVectorAndARoundTripThroughJasypt() {
        // Made once with jasypt 1.9.3's StandardPBEStringEncryptor, key "managementkey".
        CloudStackDecryptor d = new CloudStackDecryptor("managementkey");
        assertEquals("cloudpassword", d.decrypt("0PdK5rawoCvDrRJ8iG7/VSSW4Dbdn6r2"));
        assertEquals(CloudStackDecryptor.Version.V1, d.chosen());
        StandardPBEStringEncryptor jasypt = new StandardPBEStringEncryptor();
        jasypt.setPassword("k3y with spaces");
        String enc = jasypt.encrypt("p@ss:w0rd/ü");
        assertEquals("p@ss:w0rd/ü", new CloudStackDecryptor("k3y with spaces").decrypt(enc));
        assertNull(new CloudStackDecryptor("wrong").decrypt(enc));
    }

    @Test
    void theFirstVersionThatWorksIsKept() {
        CloudStackDecryptor d = new CloudStackDecryptor("managementkey");
        assertEquals("cloudpassword", d.decrypt("0PdK5rawoCvDrRJ8iG7/VSSW4Dbdn6r2"));
        assertNull(d.decrypt("iYVsCZXiGiC6SzZLMNBvBL93hoUpntxkuRjyaqC8L+JYKXw="), "V1 chosen: a V2 value no longer decrypts");
    }
}
