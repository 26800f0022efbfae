// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet;
import org.apache.cloudstack.kubernetes.state.Profile;
import org.apache.cloudstack.kubernetes.state.StateMode;
import org.apache.cloudstack.kubernetes.state.testkit.CloudStackEncryption;
import org.apache.cloudstack.kubernetes.state.testkit.JobShape;
import org.apache.cloudstack.kubernetes.state.value.Owner;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * With database encryption on (4.22.1.1 and later), a sensitive job's job_cmd_info is ciphertext: the
 * scanner never takes a cluster from it. A job of a cluster it cannot read makes it wait, as any job of
 * unknown cluster does, on H2 and on CloudStack's own database (main's: 4.23).
 */
class EncryptedJobsTest {
    private static final CloudStackEncryption KEY_FILE = new CloudStackEncryption("a management server's key");

    private static final Owner SCANNER = Owner.of(9, 1);

    static Stream<Arguments> cases() {
        return ModeFixtures.dbsAndModes().flatMap(a -> Stream.of(
                Arguments.of(a.get()[0], a.get()[1], "AES-GCM (V2)", (UnaryOperator<String>) KEY_FILE::encrypt,
                        (UnaryOperator<String>) KEY_FILE::decrypt),
                Arguments.of(a.get()[0], a.get()[1], "PBE (V1)", (UnaryOperator<String>) KEY_FILE::encryptLegacy,
                        (UnaryOperator<String>) KEY_FILE::decryptLegacy)));
    }

    @ParameterizedTest(name = "{0} {1} {2}: a cluster job whose job_cmd_info is ciphertext names no cluster; the scanner waits")
    @MethodSource("cases")
    void ciphertextNamesNoClusterAndTheScannerWaits(Databases.Db db, StateMode mode, String encryptor,
            UnaryOperator<String> encrypt, UnaryOperator<String> decrypt) throws SQLException {
        Fixtures f = ModeFixtures.reset(db, mode);
        long orphan = f.cluster(State.Scaling);
        String uuid = f.uuid(orphan);
        String plain = Fixtures.cmdInfo(uuid);
        String sealed = encrypt.apply(plain);
        assertEquals(plain, decrypt.apply(sealed), encryptor + ": the kit's ciphertext reads back");
        long job = f.job().shape(JobShape.CURRENT).cmdInfo(sealed).insert();

        AsyncJobLookup lookup = new AsyncJobLookup(ClusterCommandSet.ofReleaseLine(Profile.CLOUDSTACK_4_23));
        AsyncJobLookup.ClusterJobs jobs;
        try (var c = db.connect()) {
            jobs = lookup.inProgressClusterJobs(c);
            assertEquals(List.of(new AsyncJobLookup.ClusterJob(job, AsyncJobLookup.UNKNOWN_CLUSTER, AsyncJobLookup.Source.ENCRYPTED)),
                    jobs.jobs());
            assertEquals(List.of(), lookup.jobsNaming(c, orphan, uuid, 10), "nothing matches ciphertext");
        }
        RecoveryResult<State> waited = ModeFixtures.scanner(db, mode, SCANNER).recoverOrphanedOperationStates();
        assertEquals(RecoveryResult.Kind.WAITED, waited.kind());
        assertEquals(List.of(job), waited.unknownJobIds());
        assertEquals(State.Scaling, f.state(orphan));

        // The same job in plain text names its cluster, which it holds: nothing to wait for, nothing recovered.
        try (var c = db.connect(); var ps = c.prepareStatement("UPDATE async_job SET job_cmd_info = ? WHERE id = ?")) {
            ps.setString(1, plain);
            ps.setLong(2, job);
            assertEquals(1, ps.executeUpdate());
        }
        try (var c = db.connect()) {
            assertEquals(List.of(new AsyncJobLookup.ClusterJob(job, orphan, AsyncJobLookup.Source.CMD_INFO_UUID)),
                    lookup.inProgressClusterJobs(c).jobs());
        }
        RecoveryResult<State> held = ModeFixtures.scanner(db, mode, SCANNER).recoverOrphanedOperationStates();
        assertEquals(List.of(), held.unknownJobIds());
        assertEquals(List.of(), held.recoveredIds());
        assertEquals(State.Scaling, f.state(orphan));
    }
}
