// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Orphan-recovery planning: the edge cases of the scanner's input. The rows are ownerless (as
//! compat mode reads every row, and as an older server leaves them in fenced mode): both modes
//! plan the same clusters, by the streaming planner as the JNI bridge feeds it.

use cks_state::{
    Candidate, ClusterRow, Event, GoneReason, JobRef, Mode, Profile, RecoveryPlan, RecoveryPlanner,
    State, StateMachine,
};

const P: Profile = Profile::CloudStack4_22;

fn row(id: u64, state: State) -> Candidate {
    Candidate {
        id,
        row: ClusterRow::of(state),
    }
}

/// The pass in each mode; both must agree on what to fail, each writing as its mode does.
fn plan_recovery(clusters: &[Candidate], jobs: impl IntoIterator<Item = JobRef>) -> RecoveryPlan {
    let jobs: Vec<JobRef> = jobs.into_iter().collect();
    let [compat, fenced] = Mode::ALL.map(|mode| {
        let mut planner =
            RecoveryPlanner::new(StateMachine::new(P, mode), clusters.iter().copied());
        planner.add_jobs(jobs.iter().copied());
        assert!(!planner.wants_owner_evidence(), "{mode:?}: no row is held");
        planner.finish().unwrap()
    });
    let failed = |plan: &RecoveryPlan| match plan {
        RecoveryPlan::Recover(r) => RecoveryPlan::Recover(
            r.iter()
                .map(|r| {
                    assert_eq!(r.reason, GoneReason::NoOwnerNoJob);
                    assert_eq!(r.write.event, Some(Event::OperationFailed));
                    assert_eq!(r.write.owner, None);
                    let mut r = *r;
                    r.write.target.version = r.write.expected.version;
                    r
                })
                .collect(),
        ),
        other => other.clone(),
    };
    if let RecoveryPlan::Recover(r) = &compat {
        assert!(r.iter().all(|r| !r.write.versioned()));
    }
    if let RecoveryPlan::Recover(r) = &fenced {
        assert!(r
            .iter()
            .all(|r| r.write.target.version == r.write.expected.version + 1));
    }
    assert_eq!(
        failed(&compat),
        failed(&fenced),
        "the modes fail the same clusters"
    );
    compat
}

fn recovered(plan: RecoveryPlan) -> Vec<u64> {
    match plan {
        RecoveryPlan::Recover(r) => r.iter().map(|r| r.cluster_id).collect(),
        other => panic!("expected Recover, got {other:?}"),
    }
}

#[test]
fn zero_candidates_skip_even_with_jobs() {
    assert_eq!(plan_recovery(&[], [JobRef::Cluster(1)]), RecoveryPlan::Skip);
}

#[test]
fn only_candidates_without_a_job_are_recovered() {
    let clusters: Vec<Candidate> = (1..=10).map(|i| row(i, State::Scaling)).collect();
    let jobs = (1..=10).filter(|i| i % 2 == 0).map(JobRef::Cluster);
    assert_eq!(
        recovered(plan_recovery(&clusters, jobs)),
        vec![1, 3, 5, 7, 9]
    );
}

#[test]
fn all_candidates_with_jobs_give_an_empty_recovery() {
    let clusters = [row(1, State::Upgrading)];
    assert_eq!(
        plan_recovery(&clusters, [JobRef::Cluster(1)]),
        RecoveryPlan::Recover(vec![])
    );
}

#[test]
fn an_unknown_cluster_job_waits_wherever_it_stands() {
    let clusters = [row(1, State::Upgrading)];
    for jobs in [
        vec![JobRef::Unknown],
        vec![JobRef::Cluster(1), JobRef::Unknown],
        vec![JobRef::Unknown, JobRef::Cluster(5)],
    ] {
        assert_eq!(plan_recovery(&clusters, jobs), RecoveryPlan::Wait);
    }
}

#[test]
fn duplicate_job_rows_count_once() {
    let clusters = [row(1, State::Importing), row(2, State::RemovingNodes)];
    let jobs = [JobRef::Cluster(2), JobRef::Cluster(2), JobRef::Cluster(2)];
    assert_eq!(recovered(plan_recovery(&clusters, jobs)), vec![1]);
}

#[test]
fn a_duplicate_cluster_row_shares_the_job_of_the_first() {
    let clusters = [row(1, State::Importing), row(1, State::Importing)];
    assert_eq!(
        recovered(plan_recovery(&clusters, [JobRef::Cluster(1)])),
        Vec::<u64>::new()
    );
}

#[test]
fn a_job_for_a_cluster_that_is_not_a_candidate_changes_nothing() {
    let clusters = [row(1, State::Scaling), row(2, State::Running)];
    assert_eq!(
        recovered(plan_recovery(
            &clusters,
            [JobRef::Cluster(2), JobRef::Cluster(99)]
        )),
        vec![1]
    );
}

#[test]
fn non_candidate_rows_are_ignored() {
    let clusters = [
        row(1, State::Running),
        row(2, State::Stopping),
        row(3, State::Destroyed),
    ];
    assert_eq!(recovered(plan_recovery(&clusters, [])), vec![2]);
}

#[test]
fn one_hundred_thousand_clusters_and_a_million_jobs_plan_correctly() {
    let states = [
        State::Scaling,
        State::Upgrading,
        State::Running,
        State::Starting,
    ];
    let clusters: Vec<Candidate> = (0..100_000u64)
        .map(|i| row(i, states[(i % 4) as usize]))
        .collect();
    // Every cluster but those divisible by 7 has jobs, ten each.
    let jobs = (0..1_000_000u64)
        .map(|j| j / 10)
        .filter(|c| c % 7 != 0)
        .map(JobRef::Cluster);
    let ids = recovered(plan_recovery(&clusters, jobs));
    let expected: Vec<u64> = (0..100_000u64)
        .filter(|i| i % 7 == 0 && i % 4 != 2)
        .collect();
    assert_eq!(ids, expected);
}

/// The core, not the host, says which owners' jobs the plan needs the status of: those of held
/// candidates whose job is not IN_PROGRESS, once each; a compat pass and an unheld one need none.
#[test]
fn the_owner_jobs_to_check_are_the_held_candidates_jobs_not_in_progress() {
    let held = |id: u64, state: State, job: Option<u64>| Candidate {
        id,
        row: ClusterRow {
            token: cks_state::Token { state, version: 3 },
            owner: Some(cks_state::Owner {
                msid: 7,
                runid: 1,
                job_id: job,
            }),
        },
    };
    let rows = [
        held(1, State::Scaling, Some(40)),
        held(2, State::Running, Some(41)),
        held(3, State::Upgrading, Some(40)),
        held(4, State::Starting, None),
        held(5, State::Stopping, Some(42)),
        row(6, State::Scaling),
    ];
    let mut planner =
        RecoveryPlanner::new(StateMachine::new(P, Mode::Fenced), rows.iter().copied());
    planner.add_jobs([JobRef::Cluster(5)]);
    assert!(planner.wants_owner_evidence());
    planner.add_job_ids([42]);
    assert_eq!(planner.owner_jobs_to_check(), vec![40, 41]);

    let compat = RecoveryPlanner::new(StateMachine::new(P, Mode::Compat), rows.iter().copied());
    assert!(!compat.wants_owner_evidence());
    assert!(compat.owner_jobs_to_check().is_empty());
    let unheld = [row(6, State::Scaling)];
    let fenced = RecoveryPlanner::new(StateMachine::new(P, Mode::Fenced), unheld.iter().copied());
    assert!(!fenced.wants_owner_evidence());
    assert!(fenced.owner_jobs_to_check().is_empty());
}
