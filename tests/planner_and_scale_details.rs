// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The planner's wants, a scale's checks and refusals, codes and holds: decisions the other suites
//! reached only through JNI or not at all, pinned here so that `make mutants` (cargo-mutants over
//! the core's decision files) finds no mutant alive.

use cks_state::{
    Candidate, ClusterRow, CoreError, Hold, JobRef, Mode, Operation, Owner, Profile,
    RecoveryPlanner, ScaleKind, ScaleStep, State, StateMachine, Token, VmSummary,
};

const P: Profile = Profile::CloudStack4_22;
const COMPAT: StateMachine = StateMachine::new(P, Mode::Compat);
const FENCED: StateMachine = StateMachine::new(P, Mode::Fenced);
const ME: Owner = Owner {
    msid: 1,
    runid: 10,
    job_id: Some(100),
};

fn row(id: u64, state: State) -> Candidate {
    Candidate {
        id,
        row: ClusterRow::of(state),
    }
}

#[test]
fn a_planner_wants_jobs_only_while_a_candidate_may_still_be_recovered() {
    for machine in [COMPAT, FENCED] {
        let mode = machine.mode;
        let rows = [row(1, State::Scaling), row(2, State::Running)];
        let mut planner = RecoveryPlanner::new(machine, rows.iter().copied());
        assert!(
            planner.wants_jobs(),
            "{mode:?}: a candidate, no unknown job yet"
        );
        planner.add_jobs([JobRef::Cluster(2)]);
        assert!(
            planner.wants_jobs(),
            "{mode:?}: a job of a known cluster changes nothing"
        );
        // Without a held candidate nothing after a job of unknown cluster is read.
        let past_unknown = std::iter::from_fn(|| -> Option<JobRef> {
            panic!("{mode:?}: a job read past the first of unknown cluster")
        });
        planner.add_jobs(std::iter::once(JobRef::Unknown).chain(past_unknown));
        assert!(
            !planner.wants_jobs(),
            "{mode:?}: after a job of unknown cluster the pass waits"
        );
        assert!(
            !planner.wants_owner_evidence(),
            "{mode:?}: no held candidate, no owner to judge"
        );

        let at_rest = [row(3, State::Running)];
        assert!(
            !RecoveryPlanner::new(machine, at_rest.iter().copied()).wants_jobs(),
            "{mode:?}: no candidate: the job query is not worth its cost"
        );
    }
}

#[test]
fn a_held_candidate_keeps_wanting_jobs_and_owner_evidence_in_fenced_mode_only() {
    let held = [Candidate {
        id: 1,
        row: ClusterRow {
            token: Token {
                state: State::Destroying,
                version: 3,
            },
            owner: Some(ME),
        },
    }];
    let mut fenced = RecoveryPlanner::new(FENCED, held.iter().copied());
    fenced.add_jobs([JobRef::Unknown]);
    assert!(fenced.wants_jobs(), "a held candidate counts every job");
    assert!(fenced.wants_owner_evidence());
    // Compat mode reads no owner: Destroying at rest is no candidate at all.
    let compat = RecoveryPlanner::new(COMPAT, held.iter().copied());
    assert!(!compat.wants_jobs());
    assert!(!compat.wants_owner_evidence());
}

#[test]
fn an_empty_reconcile_plan_is_empty_and_only_it() {
    for machine in [COMPAT, FENCED] {
        let plan = |state, vms| machine.reconcile(&ClusterRow::of(state), vms, ME).unwrap();
        assert!(plan(State::Running, VmSummary::AllRunningHealthy).is_empty());
        assert!(!plan(State::Alert, VmSummary::AllStopped).is_empty());
        assert!(!plan(State::Running, VmSummary::Mixed).is_empty());
    }
}

fn scale(machine: StateMachine, kind: ScaleKind, from: State) -> cks_state::Scale {
    machine.scale(
        kind,
        Token {
            state: from,
            version: 0,
        },
        ME,
    )
}

#[test]
fn a_scale_is_checked_against_the_state_it_started_from() {
    for machine in [COMPAT, FENCED] {
        assert!(scale(machine, ScaleKind::ScaleUp, State::Running)
            .check()
            .is_ok());
        assert!(scale(machine, ScaleKind::OfferingChange, State::Stopped)
            .check()
            .is_ok());
        assert!(scale(machine, ScaleKind::ScaleUp, State::Stopped)
            .check()
            .is_err());
        assert!(scale(machine, ScaleKind::Autoscale, State::Upgrading)
            .check()
            .is_err());
    }
}

fn refusal(kind: ScaleKind, from: State) -> String {
    let [compat, fenced] =
        [COMPAT, FENCED].map(|m| scale(m, kind, from).next_step(&ClusterRow::of(from)));
    assert_eq!(compat, fenced, "a refusal is the same in both modes");
    match compat {
        Ok(ScaleStep::Refuse(r)) => r.to_string(),
        other => panic!("{kind:?} from {from}: {other:?}"),
    }
}

#[test]
fn refusals_name_the_operation_and_the_state() {
    assert_eq!(ScaleKind::Autoscale.operation(), Operation::Autoscale);
    assert_eq!(ScaleKind::ScaleDown.operation(), Operation::Scale);
    assert_eq!(
        refusal(ScaleKind::Autoscale, State::Upgrading),
        "Autoscale is not allowed for a Kubernetes cluster in state Upgrading"
    );
    assert_eq!(
        refusal(ScaleKind::ScaleUp, State::Upgrading),
        "Scale is not allowed for a Kubernetes cluster in state Upgrading"
    );
    assert_eq!(
        refusal(ScaleKind::ScaleDown, State::Stopped),
        "Scale of a Stopped Kubernetes cluster is not allowed: only its service offering can change"
    );
    assert_eq!(
        refusal(ScaleKind::Autoscale, State::Stopped),
        "Autoscale of a Stopped Kubernetes cluster is not allowed: only its service offering can change"
    );
    // An offering change may scale a Stopped cluster; a refusal of one elsewhere names the state.
    assert_eq!(
        refusal(ScaleKind::OfferingChange, State::Destroying),
        "Scale is not allowed for a Kubernetes cluster in state Destroying"
    );
    let stopped_offering = cks_state::scaling::ScaleRefusal {
        kind: ScaleKind::OfferingChange,
        state: State::Stopped,
    };
    assert_eq!(
        stopped_offering.to_string(),
        "Scale is not allowed for a Kubernetes cluster in state Stopped"
    );
}

#[test]
fn a_scale_taken_since_names_the_verb_and_the_state_now() {
    use cks_state::scaling::TakenSince;
    let taken = TakenSince {
        kind: ScaleKind::OfferingChange,
        now: State::Starting,
    };
    assert_eq!(
        taken.to_string(),
        "Cannot change the service offering of the Kubernetes cluster: another operation has taken \
         it since the request was accepted (it is now in state Starting), please retry"
    );
}

#[test]
fn a_scale_keeps_what_it_was_started_with() {
    let started = Token {
        state: State::Running,
        version: 7,
    };
    let s = FENCED.scale(ScaleKind::ScaleDown, started, ME);
    assert_eq!(
        (s.kind(), s.started(), s.hold()),
        (ScaleKind::ScaleDown, started, None)
    );
}

#[test]
fn only_the_fenced_mode_reads_the_fence() {
    assert!(Mode::Fenced.reads_fence());
    assert!(!Mode::Compat.reads_fence());
}

#[test]
fn a_hold_from_the_host_that_moved_the_cluster_holds_it_in_that_state() {
    let running = Token {
        state: State::Running,
        version: 7,
    };
    assert_eq!(
        Hold::checked("held", running, Some(State::Stopping)),
        Err(CoreError::HoldMismatch {
            argument: "held",
            moved: State::Stopping,
            held: State::Running,
        })
    );
    for moved_to in [Some(State::Running), None] {
        assert_eq!(
            Hold::checked("held", running, moved_to),
            Ok(Hold {
                token: running,
                moved_to,
            })
        );
    }
}
