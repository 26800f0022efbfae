// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Property tests over the generated tables and the recovery planner.

use std::collections::{HashSet, VecDeque};

use cks_state::{
    next_state, Candidate, ClusterRow, Event, GoneReason, InProgressJob, JobRef, Mode, Profile,
    RecoveryPlan, RecoveryPlanner, State, StateMachine, Token, TRANSITION_ROWS,
};
use proptest::prelude::*;

fn is_row(profile: Profile, from: State, event: Event, to: State) -> bool {
    TRANSITION_ROWS
        .iter()
        .any(|r| profile.includes_row(r.3) && r.0 == from && r.1 == event && r.2 == to)
}

fn profile() -> impl Strategy<Value = Profile> {
    prop_oneof![Just(Profile::CloudStack4_22), Just(Profile::AlertScaling)]
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![Just(Mode::Compat), Just(Mode::Fenced)]
}

/// Ownerless rows, as compat mode reads every row (fenced: as an older server leaves them); the
/// version is the id's, so that fenced writes differ per row.
fn rows(clusters: &[(u64, usize)], scale: u64) -> Vec<Candidate> {
    clusters
        .iter()
        .map(|(id, s)| Candidate {
            id: id * scale,
            row: ClusterRow {
                token: Token {
                    state: State::ALL[*s],
                    version: *id,
                },
                owner: None,
            },
        })
        .collect()
}

/// The convenience pass; without a held row no job id, ended job or host counts.
fn plan_recovery(machine: StateMachine, rows: &[Candidate], jobs: &[JobRef]) -> RecoveryPlan {
    let jobs: Vec<InProgressJob> = jobs
        .iter()
        .enumerate()
        .map(|(i, &cluster)| InProgressJob {
            job_id: i as u64,
            cluster,
        })
        .collect();
    machine.plan_recovery(rows, &jobs, &[], &[]).unwrap()
}

proptest! {
    #[test]
    fn random_event_sequences_only_ever_follow_table_rows(
        profile in profile(),
        events in prop::collection::vec(0..Event::COUNT, 0..200),
    ) {
        let mut state = State::Created;
        for code in events {
            let event = Event::ALL[code];
            if let Some(next) = next_state(profile, state, event) {
                prop_assert!(is_row(profile, state, event, next), "{} + {} -> {}", state, event, next);
                state = next;
            }
        }
    }

    #[test]
    fn recovery_planning_equals_a_naive_reference(
        mode in mode(),
        clusters in prop::collection::vec((0u64..40, 0..State::COUNT), 0..30),
        jobs in prop::collection::vec(prop::option::weighted(0.97, 0u64..40), 0..30),
    ) {
        let rows = rows(&clusters, 1);
        let job_refs: Vec<JobRef> = jobs.iter().map(|j| j.map_or(JobRef::Unknown, JobRef::Cluster)).collect();
        let plan = plan_recovery(StateMachine::new(Profile::CloudStack4_22, mode), &rows, &job_refs);

        let candidates: Vec<&Candidate> = rows.iter().filter(|r| r.row.token.state.is_orphan_candidate()).collect();
        let expected = if candidates.is_empty() {
            RecoveryPlan::Skip
        } else if job_refs.contains(&JobRef::Unknown) {
            RecoveryPlan::Wait
        } else {
            let with_job: HashSet<u64> = jobs.iter().flatten().copied().collect();
            let orphans: Vec<(u64, Token)> = candidates
                .iter()
                .filter(|c| !with_job.contains(&c.id))
                .map(|c| (c.id, c.row.token))
                .collect();
            let bump = u64::from(mode == Mode::Fenced);
            match &plan {
                RecoveryPlan::Recover(r) => {
                    let got: Vec<(u64, Token)> = r.iter().map(|r| (r.cluster_id, r.write.expected)).collect();
                    prop_assert_eq!(got, orphans);
                    let failed = |r: &cks_state::Recovery| {
                        // CloudStack's table fails an add or removal of nodes back to Running.
                        let state = match r.write.expected.state {
                            State::Importing | State::RemovingNodes => State::Running,
                            _ => State::Alert,
                        };
                        let failed_to = Token { state, version: r.write.expected.version + bump };
                        r.write.event == Some(Event::OperationFailed)
                            && r.write.target == failed_to
                            && r.write.owner.is_none()
                            && r.reason == GoneReason::NoOwnerNoJob
                    };
                    prop_assert!(r.iter().all(failed));
                }
                other => prop_assert!(false, "expected Recover, got {:?}", other),
            }
            return Ok(());
        };
        prop_assert_eq!(plan, expected);
    }

    /// The planner fed in chunks of any sizes (as the JNI bridge feeds it) plans what one call does,
    /// with sparse ids too, so that both kinds of job marks are exercised.
    #[test]
    fn recovery_planning_in_chunks_equals_one_call(
        mode in mode(),
        clusters in prop::collection::vec((0u64..40, 0..State::COUNT), 0..30),
        jobs in prop::collection::vec(prop::option::weighted(0.97, 0u64..40), 0..30),
        chunk_sizes in prop::collection::vec(1usize..8, 1..10),
        sparse in any::<bool>(),
    ) {
        let scale = if sparse { 1_000_000_007 } else { 1 };
        let rows = rows(&clusters, scale);
        let job_refs: Vec<JobRef> = jobs
            .iter()
            .map(|j| j.map_or(JobRef::Unknown, |id| JobRef::Cluster(id * scale)))
            .collect();
        let machine = StateMachine::new(Profile::CloudStack4_22, mode);
        let whole = plan_recovery(machine, &rows, &job_refs);

        let mut planner = RecoveryPlanner::new(machine, rows.iter().copied());
        let mut rest = &job_refs[..];
        for size in chunk_sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (chunk, tail) = rest.split_at((*size).min(rest.len()));
            planner.add_jobs(chunk.iter().copied());
            rest = tail;
        }
        prop_assert_eq!(planner.finish(), Ok(whole));
    }
}

const ORPHAN_STATES: [State; 8] = [
    State::Starting,
    State::Stopping,
    State::Scaling,
    State::ScalingStoppedCluster,
    State::Upgrading,
    State::Importing,
    State::RemovingNodes,
    State::Recovering,
];

/// Whether the profile's table names the state: a release lacks the states its rows never reach.
fn known(profile: Profile, state: State) -> bool {
    TRANSITION_ROWS
        .iter()
        .any(|r| profile.includes_row(r.3) && (r.0 == state || r.2 == state))
}

#[test]
fn each_orphan_state_has_a_success_and_a_failure_exit() {
    for profile in Profile::ALL {
        for state in ORPHAN_STATES.into_iter().filter(|s| known(profile, *s)) {
            assert!(state.is_orphan_candidate());
            assert!(
                next_state(profile, state, Event::OperationSucceeded).is_some(),
                "{state} success"
            );
            // CloudStack's table fails an add or removal of nodes back to Running.
            let failed_to = match state {
                State::Importing | State::RemovingNodes => State::Running,
                // From 4.23 a failed scale rolls back to Running (apache/cloudstack#12386).
                State::Scaling if profile == Profile::CloudStack4_23 => State::Running,
                _ => State::Alert,
            };
            assert_eq!(
                next_state(profile, state, Event::OperationFailed),
                Some(failed_to),
                "{profile:?}: {state} failure"
            );
        }
    }
    let others = State::ALL
        .iter()
        .filter(|s| s.is_orphan_candidate())
        .count();
    assert_eq!(others, ORPHAN_STATES.len());
}

#[test]
fn every_state_is_reachable_from_created() {
    for profile in Profile::ALL {
        let mut seen = HashSet::from([State::Created]);
        let mut queue = VecDeque::from([State::Created]);
        while let Some(state) = queue.pop_front() {
            for event in Event::ALL {
                if let Some(next) = next_state(profile, state, event) {
                    if seen.insert(next) {
                        queue.push_back(next);
                    }
                }
            }
        }
        let unreachable: Vec<State> = State::ALL
            .into_iter()
            .filter(|s| !seen.contains(s))
            .collect();
        let unknown: Vec<State> = State::ALL
            .into_iter()
            .filter(|s| !known(profile, *s))
            .collect();
        assert_eq!(unreachable, unknown, "{profile:?}");
    }
}

#[test]
fn destroyed_is_the_only_state_with_no_exit() {
    for profile in Profile::ALL {
        let dead_ends: Vec<State> = State::ALL
            .into_iter()
            .filter(|s| {
                Event::ALL
                    .iter()
                    .all(|e| next_state(profile, *s, *e).is_none())
            })
            .filter(|s| known(profile, *s))
            .collect();
        assert_eq!(dead_ends, vec![State::Destroyed], "{profile:?}");
    }
}
