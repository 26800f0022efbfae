// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Orphan recovery, compat and fenced, and the fenced planner.

use std::collections::HashSet;

use cks_state::{
    next_state, Candidate, ClusterRow, EntryDecision, Event, InProgressJob, JobRef, Mode, MsHost,
    MsStatus, Operation, Outcome, RecoveryPlan, RecoveryPlanner, ScaleKind, ScaleStep,
    StateMachine, VmSummary, WriteError, MAX_VERSION,
};

use super::bytes::Bytes;
use super::checks::*;

/// Compat orphan recovery: any ids (duplicates, u64::MAX), any jobs, unknown jobs, and rows with
/// any version and owner (compat reads neither).
pub fn recovery_planning(data: &[u8]) {
    let mut b = Bytes::new(data);
    let machine = StateMachine::new(b.profile(), Mode::Compat);
    let profile = machine.profile;
    let n = usize::from(b.u8() % 64);
    let rows: Vec<Candidate> = (0..n)
        .map(|_| Candidate {
            id: if b.bool() {
                u64::from(b.u8() % 16)
            } else {
                b.u64()
            },
            row: b.row(),
        })
        .collect();
    let mut jobs = Vec::new();
    while !b.is_empty() && jobs.len() < 256 {
        jobs.push(match b.u8() % 16 {
            0 => JobRef::Unknown,
            1..=11 => JobRef::Cluster(u64::from(b.u8() % 16)),
            _ => JobRef::Cluster(b.u64()),
        });
    }
    let candidates: Vec<&Candidate> = rows
        .iter()
        .filter(|r| machine.is_orphan_state(r.row.token.state))
        .collect();
    let busy: HashSet<u64> = jobs
        .iter()
        .filter_map(|j| match j {
            JobRef::Cluster(id) => Some(*id),
            JobRef::Unknown => None,
        })
        .collect();
    let in_progress: Vec<InProgressJob> = jobs
        .iter()
        .enumerate()
        .map(|(i, &cluster)| InProgressJob {
            job_id: i as u64,
            cluster,
        })
        .collect();
    let plan = machine
        .plan_recovery(&rows, &in_progress, &[], &[])
        .expect("compat never exhausts a version");
    // The same rows read as compat mode reads them, fed in chunks: the same plan but the tokens.
    let plain: Vec<Candidate> = rows
        .iter()
        .map(|r| Candidate {
            id: r.id,
            row: ClusterRow::of(r.row.token.state),
        })
        .collect();
    let mut planner = RecoveryPlanner::new(machine, plain.iter().copied());
    for chunk in jobs.chunks(7) {
        planner.add_jobs(chunk.iter().copied());
    }
    assert!(!planner.wants_owner_evidence(), "compat judges no owner");
    let chunked = planner.finish().expect("compat never exhausts a version");
    match (&plan, &chunked) {
        (RecoveryPlan::Recover(a), RecoveryPlan::Recover(b)) => {
            let ids = |r: &[cks_state::Recovery]| -> Vec<_> {
                r.iter().map(|r| (r.cluster_id, r.write.update())).collect()
            };
            assert_eq!(ids(a), ids(b));
        }
        (a, b) => assert_eq!(a, b),
    }
    match plan {
        RecoveryPlan::Skip => assert!(candidates.is_empty()),
        RecoveryPlan::Wait => assert!(jobs.contains(&JobRef::Unknown)),
        RecoveryPlan::Recover(recoveries) => {
            assert!(!candidates.is_empty());
            assert!(recoveries.len() <= candidates.len());
            for r in recoveries {
                assert!(
                    !busy.contains(&r.cluster_id),
                    "a cluster with a job is never failed"
                );
                check_write(machine, &r.write);
                assert!(rows
                    .iter()
                    .any(|c| c.id == r.cluster_id && c.row.token == r.write.expected));
                assert_eq!(r.write.event, Some(Event::OperationFailed));
                assert_eq!(r.reason, cks_state::GoneReason::NoOwnerNoJob);
                assert_eq!(
                    next_state(profile, r.write.expected.state, Event::OperationFailed),
                    Some(r.write.target.state)
                );
            }
        }
    }
}

/// The fenced decisions: entry, completion, scale, reconcile and recovery on any rows, owners,
/// versions (up to and past exhaustion) and management-server tables.
pub fn fenced_planner(data: &[u8]) {
    let mut b = Bytes::new(data);
    let machine = StateMachine::new(b.profile(), Mode::Fenced);
    let me = b.owner();
    let row = b.row();
    let operation = Operation::ALL[usize::from(b.u8()) % Operation::ALL.len()];
    match check_entry(machine, operation, &row, me) {
        Ok(EntryDecision::Transition(take) | EntryDecision::Proceed(Some(take))) => {
            assert!(row.owner.is_none(), "a held cluster is never taken");
            assert_eq!(take.write.owner, Some(me));
        }
        Ok(EntryDecision::Busy(owner)) => assert_eq!(row.owner, Some(owner)),
        Ok(EntryDecision::Proceed(None)) => panic!("fenced mode takes a cluster to proceed"),
        _ => {}
    }
    let hold = b.hold();
    for outcome in Outcome::ALL {
        check_completion(machine, hold, outcome);
    }

    let kind = ScaleKind::ALL[usize::from(b.u8()) % ScaleKind::ALL.len()];
    let mut scale = machine.scale(kind, row.token, me);
    for _ in 0..4 {
        let current = b.row();
        let step = scale.next_step(&current);
        exhausted_only_at_the_limit(machine, &step, row.token.version);
        match step {
            Ok(ScaleStep::Enter(take) | ScaleStep::SettingsOnly(Some(take))) => {
                check_take(machine, &take, me);
                assert_eq!(
                    take.write.expected, row.token,
                    "every take expects the token read at acceptance"
                );
                assert!(current.owner.is_none());
                scale.mark_entered(&take);
                let again = match take.hold.moved_to {
                    Some(_) => ScaleStep::AlreadyEntered,
                    None => ScaleStep::SettingsOnly(None),
                };
                assert_eq!(scale.next_step(&current), Ok(again));
                if let Ok(Some(done)) = scale.completion(b.bool()) {
                    check_write(machine, &done);
                    assert_eq!(Some(done.expected), scale.hold().map(|h| h.token));
                }
            }
            Ok(ScaleStep::Busy(o)) => assert_eq!(current.owner, Some(o)),
            _ => {}
        }
    }

    let scanner = b.owner();
    let listed = b.row();
    let vms = VmSummary::ALL[usize::from(b.u8()) % VmSummary::ALL.len()];
    check_reconcile(machine, &listed, vms, scanner);

    let n = usize::from(b.u8() % 16);
    let candidates: Vec<Candidate> = (0..n)
        .map(|_| Candidate {
            id: u64::from(b.u8() % 8),
            row: b.row(),
        })
        .collect();
    let jobs: Vec<InProgressJob> = (0..usize::from(b.u8() % 8))
        .map(|_| InProgressJob {
            job_id: u64::from(b.u8() % 16),
            cluster: if b.u8() % 5 == 0 {
                JobRef::Unknown
            } else {
                JobRef::Cluster(u64::from(b.u8() % 8))
            },
        })
        .collect();
    let hosts: Vec<MsHost> = (0..usize::from(b.u8() % 6))
        .map(|_| MsHost {
            msid: u64::from(b.u8() % 4),
            runid: u64::from(b.u8() % 4),
            status: match b.u8() % 3 {
                0 => MsStatus::Up,
                1 => MsStatus::Down,
                _ => MsStatus::Other,
            },
            heartbeat_age_secs: if b.bool() { u64::from(b.u8()) } else { b.u64() },
        })
        .collect();
    let ended: Vec<u64> = (0..usize::from(b.u8() % 4))
        .map(|_| u64::from(b.u8() % 16))
        .collect();
    let plan = machine.plan_recovery(&candidates, &jobs, &ended, &hosts);

    // The streaming planner fed in pieces (jobs in chunks, hosts in two parts) plans the same.
    let mut planner = RecoveryPlanner::new(machine, candidates.iter().copied());
    for chunk in jobs.chunks(3) {
        planner.add_jobs(chunk.iter().map(|j| j.cluster));
    }
    if planner.wants_owner_evidence() {
        planner.add_job_ids(jobs.iter().map(|j| j.job_id));
        planner.add_ended_jobs(ended.iter().copied());
        let (first, second) = hosts.split_at(hosts.len() / 2);
        planner.add_hosts(first);
        planner.add_hosts(second);
    }
    assert_eq!(planner.finish(), plan, "fed in pieces or at once, one plan");

    let is_candidate = |c: &&Candidate| machine.is_candidate(&c.row);
    let unknown_job = jobs.iter().any(|j| j.cluster == JobRef::Unknown);
    match plan {
        Err(WriteError::VersionExhausted { version }) => {
            assert!(version >= MAX_VERSION);
            assert!(candidates.iter().any(|c| c.row.token.version == version));
        }
        Ok(RecoveryPlan::Skip) => assert!(!candidates.iter().any(|c| is_candidate(&c))),
        Ok(RecoveryPlan::Wait) => {
            assert!(unknown_job, "waits only on a job of an unknown cluster");
            assert!(
                candidates
                    .iter()
                    .filter(is_candidate)
                    .any(|c| c.row.owner.is_none()),
                "only an ownerless candidate waits"
            );
        }
        Ok(RecoveryPlan::Recover(recoveries)) => {
            assert!(candidates.iter().any(|c| is_candidate(&c)));
            for r in recoveries {
                check_write(machine, &r.write);
                assert_eq!(r.write.owner, None, "a recovery releases the cluster");
                // Rows may repeat an id (even a token): one of them must justify the recovery.
                let justified = candidates
                    .iter()
                    .filter(|c| c.id == r.cluster_id && c.row.token == r.write.expected)
                    .filter(is_candidate)
                    .any(|c| match c.row.owner {
                        Some(owner) => {
                            let live = owner
                                .job_id
                                .is_some_and(|j| jobs.iter().any(|job| job.job_id == j));
                            let job_ended = owner.job_id.is_some_and(|j| ended.contains(&j));
                            // An msid that mshost does not show proves nothing.
                            !live && (job_ended || hosts.iter().any(|h| h.msid == owner.msid))
                        }
                        // Ownerless: failed by the table's row only, as in compat mode.
                        None => !unknown_job && r.write.event == Some(Event::OperationFailed),
                    });
                assert!(justified, "a recovery no candidate row justifies: {r:?}");
                assert!(
                    !jobs
                        .iter()
                        .any(|j| j.cluster == JobRef::Cluster(r.cluster_id)),
                    "a cluster an IN_PROGRESS job names is never failed"
                );
            }
        }
    }
}
