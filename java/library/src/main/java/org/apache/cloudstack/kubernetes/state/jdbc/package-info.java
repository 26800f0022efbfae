// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
/**
 * The database side of cks-state, on CloudStack's own tables: what {@code KubernetesClusterDaoImpl},
 * the CKS action workers and the status scanner of {@code KubernetesClusterManagerImpl} become
 * when every state write is a compare-and-set decided by the native state machine.
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@link org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema}: the fenced mode's columns
 *       of kubernetes_cluster (reversible migrations) and the checks of a database before use; runs on
 *       MariaDB/MySQL and H2 ({@code MODE=MySQL;DATABASE_TO_LOWER=TRUE}). CloudStack's tables are
 *       CloudStack's: the library never creates them.</li>
 *   <li>{@link org.apache.cloudstack.kubernetes.state.jdbc.KubernetesClusterStateDao}: the only writer
 *       of {@code kubernetes_cluster.state}, in the machine's mode: compat {@code UPDATE ... SET state=?
 *       WHERE id=? AND state=? AND removed IS NULL}; fenced also compares {@code state_version} and
 *       writes the next version and the operation's owner. True when the row changed. On a
 *       connection of its own, or joined to the caller's transaction.</li>
 *   <li>{@link org.apache.cloudstack.kubernetes.state.jdbc.ClusterOperationGuard}: the workers' rules
 *       (enter, proceed, nothing to do, refuse, lost race; scaling entered once; completion only of
 *       what the operation's entry left: compat from the state it moved the cluster to, fenced by
 *       the token it wrote; Importing before the binaries ISO).</li>
 *   <li>{@link org.apache.cloudstack.kubernetes.state.jdbc.AsyncJobLookup} and
 *       {@link org.apache.cloudstack.kubernetes.state.sql.JobCmdInfo}: the IN_PROGRESS cluster jobs
 *       and their clusters, also for jobs of older servers that leave {@code instance_id} NULL.</li>
 *   <li>{@link org.apache.cloudstack.kubernetes.state.jdbc.ClusterStateScanner}: orphan
 *       recovery and Alert reconciliation / fault detection, with a constant number of statements
 *       per pass plus one compare-and-set per cluster it moves.</li>
 *   <li>{@link org.apache.cloudstack.kubernetes.state.jdbc.StatementCounter}: a JDBC proxy that
 *       counts the statements a pass executes.</li>
 * </ul>
 *
 * <h2>Why the compare-and-set does not depend on found rows vs affected rows</h2>
 * MySQL and MariaDB report 0 "affected" rows for an UPDATE that writes the value already stored,
 * unless the client asks for found rows (MariaDB Connector/J {@code useAffectedRows=false}, its
 * default). A compat write is a transition of the table that moves the state (the core's one
 * shape rule: compat never writes a self-loop row such as Running -OperationSucceeded-> Running, and
 * both stores refuse one without SQL): its new state differs from the state the WHERE clause matched. A fenced write (a transition, or a PROCEED that keeps the state) always stores
 * the next version. Either way a matched row is a changed row, and both driver settings report 1
 * for a hit, 0 for a miss. The tests run both settings on MariaDB and both READ COMMITTED and REPEATABLE READ
 * on both databases.
 *
 * <h2>Lost races</h2>
 * A deadlock or serialization failure (SQLState class 40, MySQL 1213, H2 40001/90131) or a lock wait
 * timeout (MySQL 1205, H2 50200) during a compare-and-set means another writer had the row: the
 * transaction is rolled back and the result is "not changed" (the worker fails with "please
 * retry"). On the caller's connection (the DAO's joined forms) it is thrown instead, as a
 * {@link org.apache.cloudstack.kubernetes.state.jdbc.StateStoreException} whose {@code isLostRace()}
 * is true, because the caller's transaction may be gone. Other SQL failures throw that exception.
 *
 * <h2>One stack, two modes ({@code docs/fenced-mode.md})</h2>
 * The mode ({@link org.apache.cloudstack.kubernetes.state.StateMode}, compat by default) is bound
 * into the {@link org.apache.cloudstack.kubernetes.state.ClusterStateMachine}; the same DAO, guard and
 * scanner run both. It changes only the SQL (fenced compares (state, version) and stores the
 * operation's owner; {@link org.apache.cloudstack.kubernetes.state.jdbc.CloudStackSchema#migrateUp}
 * adds those columns, reversibly, with a trigger for older servers' blind writes) and the native
 * core's decisions (fenced holds the cluster for one operation at a time and recovers only when the
 * owner is provably gone). Fenced mode closes the windows below.
 *
 * <h2>Windows that remain in compat mode (as upstream says)</h2>
 * <ul>
 *   <li>The compare-and-set is on the state only (there is no version column): if an operation
 *       ends and another starts and reaches the same state between the scanner's reads and its
 *       update, the scanner fails the new one.</li>
 *   <li>Created has no scaling transition: a scale of a Created cluster re-reads the state just
 *       before its settings change (TAKEN_SINCE if a start took it), but a start between that read
 *       and the settings write is not caught.</li>
 *   <li>Start from Alert/Error and destroy from Destroying proceed without a state change, so two
 *       concurrent ones both go ahead; and a start that proceeds from Alert leaves the cluster in
 *       Alert, so the Alert-to-Stopped reconciliation can still stop VMs such a start brought up if
 *       it listed them all stopped just before.</li>
 *   <li>Recovery trusts IN_PROGRESS jobs: a job garbage-collected while its operation still runs
 *       (a lowered {@code job.expire.minutes}) lets the scanner fail a live operation.</li>
 * </ul>
 */
package org.apache.cloudstack.kubernetes.state.jdbc;

import org.apache.cloudstack.kubernetes.state.sql.JobCmdInfo;
