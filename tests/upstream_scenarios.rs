// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The scenarios the upstream change (apache/cloudstack#14609) lists under "How Has This Been
//! Tested" and "How did you try to break this feature", as decisions of the core.

mod common;

use cks_state::{
    complete, decide_entry, Candidate, ClusterRow, Completion, EntryDecision, EntryRule, Event,
    GoneReason, InProgressJob, JobRef, Mode, Operation, Outcome, Owner, Profile, RecoveryPlan,
    Scale, ScaleKind, ScaleStep, State, StateMachine, Token, VmSummary,
};
use common::ClusterCell;

const P: Profile = Profile::CloudStack4_22;
/// Upstream's stack: compare-and-set on the state alone.
const COMPAT: StateMachine = StateMachine::new(P, Mode::Compat);
const ME: Owner = Owner {
    msid: 1,
    runid: 10,
    job_id: Some(100),
};

fn scale(profile: Profile, kind: ScaleKind, from: State) -> Scale {
    StateMachine::new(profile, Mode::Compat).scale(
        kind,
        Token {
            state: from,
            version: 0,
        },
        ME,
    )
}

fn step(op: &Scale, current: State) -> ScaleStep {
    op.next_step(&ClusterRow::of(current))
        .expect("compat mode never exhausts a version")
}

fn enter(cell: &mut ClusterCell, operation: Operation) -> Result<Option<State>, String> {
    match COMPAT.entry(operation, &ClusterRow::of(cell.state), ME) {
        Ok(EntryDecision::Transition(take)) if cell.write(&take.write) => Ok(take.hold.moved_to),
        Ok(EntryDecision::Transition(_)) => Err("please retry".into()),
        Ok(EntryDecision::Proceed(None) | EntryDecision::NothingToDo) => Ok(None),
        Ok(EntryDecision::Refuse(r)) => Err(r.to_string()),
        other => panic!("compat mode neither takes nor is busy: {other:?}"),
    }
}

#[test]
fn transit_to_operation_state_moves_the_cluster() {
    let mut cell = ClusterCell::new(State::Running);
    assert_eq!(
        enter(&mut cell, Operation::Upgrade),
        Ok(Some(State::Upgrading))
    );
    assert_eq!(cell.state, State::Upgrading);
}

#[test]
fn it_fails_when_another_operation_moved_the_cluster_first() {
    // Both workers read Running; the scale wins the compare-and-set, the upgrade's misses.
    let mut cell = ClusterCell::new(State::Running);
    let EntryRule::Transition(upgrade) = decide_entry(P, Operation::Upgrade, State::Running) else {
        panic!()
    };
    let EntryRule::Transition(scale) = decide_entry(P, Operation::Scale, State::Running) else {
        panic!()
    };
    assert!(cell.compare_and_set(scale));
    assert!(!cell.compare_and_set(upgrade));
    assert_eq!(cell.state, State::Scaling);
}

#[test]
fn it_fails_in_a_state_with_no_transition_unless_that_state_is_exempt() {
    assert!(matches!(
        decide_entry(P, Operation::Upgrade, State::Stopped),
        EntryRule::Refuse(_)
    ));
    assert_eq!(
        decide_entry(P, Operation::Start, State::Alert),
        EntryRule::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Start, State::Error),
        EntryRule::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Stop, State::Created),
        EntryRule::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Stop, State::Error),
        EntryRule::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Destroy, State::Destroying),
        EntryRule::Proceed
    );
}

#[test]
fn fail_operation_if_still_in_leaves_a_cluster_that_has_moved_on() {
    let Completion::CompareAndSet(fail) = complete(P, Some(State::Upgrading), Outcome::Failed)
    else {
        panic!()
    };
    assert_eq!(
        (fail.expected, fail.event, fail.target),
        (State::Upgrading, Event::OperationFailed, State::Alert)
    );
    let mut moved_on = ClusterCell::new(State::Running);
    assert!(!moved_on.compare_and_set(fail));
    assert_eq!(moved_on.state, State::Running);
    let mut still_in = ClusterCell::new(State::Upgrading);
    assert!(still_in.compare_and_set(fail));
    assert_eq!(still_in.state, State::Alert);
}

#[test]
fn an_operation_that_proceeded_without_a_change_completes_without_one() {
    assert_eq!(complete(P, None, Outcome::Failed), Completion::LeaveIt);
    assert_eq!(complete(P, None, Outcome::Succeeded), Completion::LeaveIt);
}

#[test]
fn a_create_failure_from_starting_goes_to_error() {
    let Completion::CompareAndSet(u) = complete(P, Some(State::Starting), Outcome::CreateFailed)
    else {
        panic!()
    };
    assert_eq!(u.target, State::Error);
    assert_eq!(
        complete(P, Some(State::Scaling), Outcome::CreateFailed),
        Completion::LeaveIt
    );
}

#[test]
fn enter_scaling_state_transitions_once_for_all_steps_of_an_operation() {
    let mut cell = ClusterCell::new(State::Running);
    let mut op = scale(P, ScaleKind::ScaleUp, State::Running);
    let ScaleStep::Enter(take) = step(&op, cell.state) else {
        panic!()
    };
    assert!(cell.write(&take.write));
    op.mark_entered(&take);
    for _ in 0..3 {
        assert_eq!(step(&op, cell.state), ScaleStep::AlreadyEntered);
    }
    assert_eq!(op.entered(), Some(State::Scaling));
    let Ok(Some(done)) = op.completion(true) else {
        panic!()
    };
    assert!(cell.write(&done));
    assert_eq!(cell.state, State::Running);
}

#[test]
fn enter_scaling_state_fails_when_another_operation_got_there_first() {
    let mut cell = ClusterCell::new(State::Running);
    let first = scale(P, ScaleKind::ScaleUp, State::Running);
    let second = scale(P, ScaleKind::ScaleDown, State::Running);
    let ScaleStep::Enter(a) = step(&first, State::Running) else {
        panic!()
    };
    let ScaleStep::Enter(b) = step(&second, State::Running) else {
        panic!()
    };
    assert!(cell.write(&a.write));
    assert!(
        !cell.write(&b.write),
        "the second scale's compare-and-set expects Running"
    );
    assert_eq!(second.completion(false), Ok(None), "leave it");
    assert_eq!(cell.state, State::Scaling);
}

#[test]
fn enter_scaling_state_leaves_a_never_started_cluster_in_its_state() {
    let op = scale(P, ScaleKind::ScaleUp, State::Created);
    assert_eq!(step(&op, State::Created), ScaleStep::SettingsOnly(None));
    assert_eq!(op.completion(true), Ok(None), "leave it");
    assert_eq!(op.completion(false), Ok(None), "leave it");
}

#[test]
fn enter_scaling_state_fails_for_a_cluster_that_a_start_has_taken_since() {
    let op = scale(P, ScaleKind::Autoscale, State::Created);
    assert_eq!(
        step(&op, State::Starting),
        ScaleStep::FailTakenSince(State::Starting)
    );
}

#[test]
fn a_scale_that_fails_validation_before_entering_never_moves_another_scales_scaling() {
    let mut cell = ClusterCell::new(State::Running);
    let mut winner = scale(P, ScaleKind::ScaleUp, State::Running);
    let ScaleStep::Enter(take) = step(&winner, cell.state) else {
        panic!()
    };
    assert!(cell.write(&take.write));
    winner.mark_entered(&take);
    let invalid = scale(P, ScaleKind::ScaleDown, State::Running);
    assert_eq!(invalid.completion(false), Ok(None), "leave it");
    assert_eq!(cell.state, State::Scaling);
}

#[test]
fn a_failure_in_scaling_stopped_cluster_goes_to_alert() {
    let mut op = scale(P, ScaleKind::OfferingChange, State::Stopped);
    let ScaleStep::Enter(take) = step(&op, State::Stopped) else {
        panic!()
    };
    assert_eq!(take.write.target.state, State::ScalingStoppedCluster);
    op.mark_entered(&take);
    let Ok(Some(fail)) = op.completion(false) else {
        panic!()
    };
    assert_eq!(
        (fail.expected.state, fail.target.state),
        (State::ScalingStoppedCluster, State::Alert)
    );
}

#[test]
fn a_size_change_of_a_stopped_cluster_is_refused() {
    for kind in [
        ScaleKind::ScaleUp,
        ScaleKind::ScaleDown,
        ScaleKind::Autoscale,
    ] {
        let ScaleStep::Refuse(r) = step(&scale(P, kind, State::Stopped), State::Stopped) else {
            panic!("{kind:?}")
        };
        assert!(r.to_string().contains("Stopped"), "{r}");
    }
}

#[test]
fn scaling_is_refused_from_alert_unless_the_alert_scaling_profile_is_bound() {
    let op = scale(P, ScaleKind::ScaleUp, State::Alert);
    assert!(matches!(step(&op, State::Alert), ScaleStep::Refuse(_)));
    let op = scale(Profile::AlertScaling, ScaleKind::ScaleUp, State::Alert);
    assert!(
        matches!(step(&op, State::Alert), ScaleStep::Enter(t) if t.write.target.state == State::Scaling)
    );
}

#[test]
fn adding_nodes_to_a_stopped_cluster_is_refused() {
    assert!(matches!(
        decide_entry(P, Operation::AddNodes, State::Stopped),
        EntryRule::Refuse(_)
    ));
}

#[test]
fn stopping_or_destroying_a_cluster_in_the_middle_of_a_scale_or_upgrade_is_refused() {
    for state in [
        State::Scaling,
        State::Upgrading,
        State::ScalingStoppedCluster,
    ] {
        assert!(
            matches!(
                decide_entry(P, Operation::Stop, state),
                EntryRule::Refuse(_)
            ),
            "stop from {state}"
        );
        assert!(
            matches!(
                decide_entry(P, Operation::Destroy, state),
                EntryRule::Refuse(_)
            ),
            "destroy from {state}"
        );
    }
}

#[test]
fn two_operations_at_once_only_one_gets_past_its_first_transition() {
    for (a, b) in [
        (Operation::Upgrade, Operation::Scale),
        (Operation::Stop, Operation::AddNodes),
        (Operation::Destroy, Operation::RemoveNodes),
    ] {
        let mut cell = ClusterCell::new(State::Running);
        let EntryRule::Transition(ua) = decide_entry(P, a, cell.state) else {
            panic!()
        };
        let EntryRule::Transition(ub) = decide_entry(P, b, cell.state) else {
            panic!()
        };
        let wins = [cell.compare_and_set(ua), cell.compare_and_set(ub)];
        assert_eq!(wins, [true, false], "{a} vs {b}");
    }
}

#[test]
fn a_stop_can_still_take_over_a_starting_cluster() {
    assert!(
        matches!(decide_entry(P, Operation::Stop, State::Starting), EntryRule::Transition(u) if u.target == State::Stopping)
    );
}

#[test]
fn two_destroys_or_two_starts_of_an_alert_cluster_both_go_ahead_in_compat_mode() {
    assert_eq!(
        decide_entry(P, Operation::Destroy, State::Destroying),
        EntryRule::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Start, State::Alert),
        EntryRule::Proceed
    );
    // Both proceed without a write: nothing tells the second that the first goes ahead.
    for (operation, state) in [
        (Operation::Destroy, State::Destroying),
        (Operation::Start, State::Alert),
    ] {
        for _ in 0..2 {
            assert_eq!(
                COMPAT.entry(operation, &ClusterRow::of(state), ME),
                Ok(EntryDecision::Proceed(None))
            );
        }
    }
}

fn row(id: u64, state: State) -> Candidate {
    Candidate {
        id,
        row: ClusterRow::of(state),
    }
}

/// The compat recovery pass; compat reads no job id, no ended job and no host.
fn plan_recovery(clusters: &[Candidate], jobs: impl IntoIterator<Item = JobRef>) -> RecoveryPlan {
    let jobs: Vec<InProgressJob> = jobs
        .into_iter()
        .map(|cluster| InProgressJob { job_id: 0, cluster })
        .collect();
    let plan = COMPAT.plan_recovery(clusters, &jobs, &[], &[]).unwrap();
    if let RecoveryPlan::Recover(r) = &plan {
        assert!(r.iter().all(|r| r.reason == GoneReason::NoOwnerNoJob));
    }
    plan
}

fn plan_reconcile(state: State, vms: VmSummary) -> Vec<cks_state::Write> {
    COMPAT
        .reconcile(&ClusterRow::of(state), vms, ME)
        .unwrap()
        .steps()
        .collect()
}

#[test]
fn recovery_fails_only_operations_with_no_job() {
    let clusters = [
        row(1, State::Scaling),
        row(2, State::Upgrading),
        row(3, State::Importing),
    ];
    let RecoveryPlan::Recover(r) = plan_recovery(&clusters, [JobRef::Cluster(2)]) else {
        panic!()
    };
    let ids: Vec<u64> = r.iter().map(|r| r.cluster_id).collect();
    assert_eq!(ids, vec![1, 3]);
    // Scaling fails to Alert; CloudStack's table fails an add of nodes back to Running, where the
    // scanner's check of running clusters sends it to Alert if its nodes are not all up.
    let targets: Vec<(State, Event, State)> = r
        .iter()
        .map(|r| {
            let u = r.write.update().unwrap();
            (u.expected, u.event, u.target)
        })
        .collect();
    assert_eq!(
        targets,
        vec![
            (State::Scaling, Event::OperationFailed, State::Alert),
            (State::Importing, Event::OperationFailed, State::Running)
        ]
    );
}

#[test]
fn recovery_waits_while_a_job_for_an_unknown_cluster_is_in_progress() {
    let clusters = [row(1, State::Scaling)];
    assert_eq!(
        plan_recovery(&clusters, [JobRef::Cluster(9), JobRef::Unknown]),
        RecoveryPlan::Wait
    );
}

#[test]
fn recovery_skips_the_job_lookup_when_no_cluster_is_in_an_operation_state() {
    let clusters = [
        row(1, State::Running),
        row(2, State::Alert),
        row(3, State::Stopped),
    ];
    assert_eq!(
        plan_recovery(&clusters, [JobRef::Unknown]),
        RecoveryPlan::Skip
    );
}

#[test]
fn recovery_leaves_a_cluster_whose_operation_ended_or_that_gained_a_job_since_the_scan() {
    let clusters = [row(1, State::Upgrading), row(2, State::Scaling)];
    let RecoveryPlan::Recover(r) = plan_recovery(&clusters, []) else {
        panic!()
    };
    // Cluster 1's upgrade ended between the read and the update: the compare-and-set misses.
    let mut ended = ClusterCell::new(State::Running);
    assert!(!ended.write(&r[0].write));
    assert_eq!(ended.state, State::Running);
    // Cluster 2 gained a job before the jobs were read: it is not planned at all.
    let RecoveryPlan::Recover(r) = plan_recovery(&clusters, [JobRef::Cluster(2)]) else {
        panic!()
    };
    assert_eq!(r.iter().map(|r| r.cluster_id).collect::<Vec<_>>(), vec![1]);
}

#[test]
fn recovery_sends_a_starting_cluster_to_alert() {
    let RecoveryPlan::Recover(r) = plan_recovery(&[row(7, State::Starting)], []) else {
        panic!()
    };
    assert_eq!(r[0].write.target.state, State::Alert);
}

#[test]
fn alert_to_stopped_reconciliation_moves_the_cluster_as_listed() {
    let steps = plan_reconcile(State::Alert, VmSummary::AllStopped);
    assert_eq!(steps.len(), 2);
    // A user started the cluster since it was listed: the first step misses, nothing stops it.
    let mut started = ClusterCell::new(State::Starting);
    assert!(!started.write(&steps[0]));
    let mut alert = ClusterCell::new(State::Alert);
    assert!(steps.iter().all(|s| alert.write(s)));
    assert_eq!(alert.state, State::Stopped);
}

#[test]
fn reconcile_completes_only_a_recovery_it_started_itself() {
    let steps = plan_reconcile(State::Alert, VmSummary::AllRunningHealthy);
    assert_eq!(steps[0].target.state, State::Recovering);
    assert_eq!(steps[1].expected.state, State::Recovering);
    // A cluster listed as Recovering (another pass's recovery) is left alone.
    assert!(plan_reconcile(State::Recovering, VmSummary::AllRunningHealthy).is_empty());
    assert!(plan_reconcile(State::Alert, VmSummary::Mixed).is_empty());
}

#[test]
fn a_running_cluster_with_faulty_vms_goes_to_alert() {
    for vms in [
        VmSummary::AllStopped,
        VmSummary::Mixed,
        VmSummary::Incomplete,
    ] {
        let steps = plan_reconcile(State::Running, vms);
        assert_eq!(steps.len(), 1);
        assert_eq!(
            (steps[0].event, steps[0].target.state),
            (Some(Event::FaultsDetected), State::Alert)
        );
    }
    assert!(plan_reconcile(State::Running, VmSummary::AllRunningHealthy).is_empty());
}
