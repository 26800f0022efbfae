//! The scenarios the upstream change (apache/cloudstack#14609) lists under "How Has This Been
//! Tested" and "How did you try to break this feature", as decisions of the core.

mod common;

use cks_state::{
    complete, decide_entry, plan_reconcile, plan_recovery, ClusterRow, Completion, EntryDecision,
    Event, JobRef, Operation, Outcome, Profile, RecoveryPlan, ScaleKind, ScaleOperation,
    ScalingStep, State, VmSummary,
};
use common::ClusterCell;

const P: Profile = Profile::Upstream;

fn enter(cell: &mut ClusterCell, operation: Operation) -> Result<Option<State>, String> {
    match decide_entry(P, operation, cell.state) {
        EntryDecision::Transition(update) if cell.compare_and_set(update) => {
            Ok(Some(update.target))
        }
        EntryDecision::Transition(_) => Err("please retry".into()),
        EntryDecision::Proceed | EntryDecision::NothingToDo => Ok(None),
        EntryDecision::Refuse(r) => Err(r.to_string()),
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
    let EntryDecision::Transition(upgrade) = decide_entry(P, Operation::Upgrade, State::Running)
    else {
        panic!()
    };
    let EntryDecision::Transition(scale) = decide_entry(P, Operation::Scale, State::Running) else {
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
        EntryDecision::Refuse(_)
    ));
    assert_eq!(
        decide_entry(P, Operation::Start, State::Alert),
        EntryDecision::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Start, State::Error),
        EntryDecision::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Stop, State::Created),
        EntryDecision::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Stop, State::Error),
        EntryDecision::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Destroy, State::Destroying),
        EntryDecision::Proceed
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
    let mut op = ScaleOperation::new(P, ScaleKind::ScaleUp, State::Running);
    let ScalingStep::Enter(update) = op.next_step(cell.state) else {
        panic!()
    };
    assert!(cell.compare_and_set(update));
    op.mark_entered();
    for _ in 0..3 {
        assert_eq!(op.next_step(cell.state), ScalingStep::AlreadyEntered);
    }
    assert_eq!(op.entered(), Some(State::Scaling));
    let Completion::CompareAndSet(done) = op.completion(true) else {
        panic!()
    };
    assert!(cell.compare_and_set(done));
    assert_eq!(cell.state, State::Running);
}

#[test]
fn enter_scaling_state_fails_when_another_operation_got_there_first() {
    let mut cell = ClusterCell::new(State::Running);
    let first = ScaleOperation::new(P, ScaleKind::ScaleUp, State::Running);
    let second = ScaleOperation::new(P, ScaleKind::ScaleDown, State::Running);
    let ScalingStep::Enter(a) = first.next_step(State::Running) else {
        panic!()
    };
    let ScalingStep::Enter(b) = second.next_step(State::Running) else {
        panic!()
    };
    assert!(cell.compare_and_set(a));
    assert!(
        !cell.compare_and_set(b),
        "the second scale's compare-and-set expects Running"
    );
    assert_eq!(second.completion(false), Completion::LeaveIt);
    assert_eq!(cell.state, State::Scaling);
}

#[test]
fn enter_scaling_state_leaves_a_never_started_cluster_in_its_state() {
    let op = ScaleOperation::new(P, ScaleKind::ScaleUp, State::Created);
    assert_eq!(
        op.next_step(State::Created),
        ScalingStep::ChangeSettingsOnly
    );
    assert_eq!(op.completion(true), Completion::LeaveIt);
    assert_eq!(op.completion(false), Completion::LeaveIt);
}

#[test]
fn enter_scaling_state_fails_for_a_cluster_that_a_start_has_taken_since() {
    let op = ScaleOperation::new(P, ScaleKind::Autoscale, State::Created);
    assert_eq!(
        op.next_step(State::Starting),
        ScalingStep::FailTakenSince(State::Starting)
    );
}

#[test]
fn a_scale_that_fails_validation_before_entering_never_moves_another_scales_scaling() {
    let mut cell = ClusterCell::new(State::Running);
    let mut winner = ScaleOperation::new(P, ScaleKind::ScaleUp, State::Running);
    let ScalingStep::Enter(u) = winner.next_step(cell.state) else {
        panic!()
    };
    assert!(cell.compare_and_set(u));
    winner.mark_entered();
    let invalid = ScaleOperation::new(P, ScaleKind::ScaleDown, State::Running);
    assert_eq!(invalid.completion(false), Completion::LeaveIt);
    assert_eq!(cell.state, State::Scaling);
}

#[test]
fn a_failure_in_scaling_stopped_cluster_goes_to_alert() {
    let mut op = ScaleOperation::new(P, ScaleKind::OfferingChange, State::Stopped);
    let ScalingStep::Enter(u) = op.next_step(State::Stopped) else {
        panic!()
    };
    assert_eq!(u.target, State::ScalingStoppedCluster);
    op.mark_entered();
    let Completion::CompareAndSet(fail) = op.completion(false) else {
        panic!()
    };
    assert_eq!(
        (fail.expected, fail.target),
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
        let ScalingStep::Refuse(r) =
            ScaleOperation::new(P, kind, State::Stopped).next_step(State::Stopped)
        else {
            panic!("{kind:?}")
        };
        assert!(r.to_string().contains("Stopped"), "{r}");
    }
}

#[test]
fn scaling_is_refused_from_alert_unless_the_alert_scaling_profile_is_bound() {
    let op = ScaleOperation::new(P, ScaleKind::ScaleUp, State::Alert);
    assert!(matches!(op.next_step(State::Alert), ScalingStep::Refuse(_)));
    let op = ScaleOperation::new(Profile::AlertScaling, ScaleKind::ScaleUp, State::Alert);
    assert!(
        matches!(op.next_step(State::Alert), ScalingStep::Enter(u) if u.target == State::Scaling)
    );
}

#[test]
fn adding_nodes_to_a_stopped_cluster_is_refused() {
    assert!(matches!(
        decide_entry(P, Operation::AddNodes, State::Stopped),
        EntryDecision::Refuse(_)
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
                EntryDecision::Refuse(_)
            ),
            "stop from {state}"
        );
        assert!(
            matches!(
                decide_entry(P, Operation::Destroy, state),
                EntryDecision::Refuse(_)
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
        let EntryDecision::Transition(ua) = decide_entry(P, a, cell.state) else {
            panic!()
        };
        let EntryDecision::Transition(ub) = decide_entry(P, b, cell.state) else {
            panic!()
        };
        let wins = [cell.compare_and_set(ua), cell.compare_and_set(ub)];
        assert_eq!(wins, [true, false], "{a} vs {b}");
    }
}

#[test]
fn a_stop_can_still_take_over_a_starting_cluster() {
    assert!(
        matches!(decide_entry(P, Operation::Stop, State::Starting), EntryDecision::Transition(u) if u.target == State::Stopping)
    );
}

#[test]
fn two_destroys_or_two_starts_of_an_alert_cluster_both_go_ahead_in_compat_mode() {
    assert_eq!(
        decide_entry(P, Operation::Destroy, State::Destroying),
        EntryDecision::Proceed
    );
    assert_eq!(
        decide_entry(P, Operation::Start, State::Alert),
        EntryDecision::Proceed
    );
}

fn row(id: u64, state: State) -> ClusterRow {
    ClusterRow { id, state }
}

#[test]
fn recovery_fails_only_operations_with_no_job() {
    let clusters = [
        row(1, State::Scaling),
        row(2, State::Upgrading),
        row(3, State::Importing),
    ];
    let RecoveryPlan::Recover(r) = plan_recovery(P, &clusters, [JobRef::Cluster(2)]) else {
        panic!()
    };
    let ids: Vec<u64> = r.iter().map(|r| r.cluster_id).collect();
    assert_eq!(ids, vec![1, 3]);
    assert!(r
        .iter()
        .all(|r| r.update.event == Event::OperationFailed && r.update.target == State::Alert));
}

#[test]
fn recovery_waits_while_a_job_for_an_unknown_cluster_is_in_progress() {
    let clusters = [row(1, State::Scaling)];
    assert_eq!(
        plan_recovery(P, &clusters, [JobRef::Cluster(9), JobRef::Unknown]),
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
        plan_recovery(P, &clusters, [JobRef::Unknown]),
        RecoveryPlan::Skip
    );
}

#[test]
fn recovery_leaves_a_cluster_whose_operation_ended_or_that_gained_a_job_since_the_scan() {
    let clusters = [row(1, State::Upgrading), row(2, State::Scaling)];
    let RecoveryPlan::Recover(r) = plan_recovery(P, &clusters, []) else {
        panic!()
    };
    // Cluster 1's upgrade ended between the read and the update: the compare-and-set misses.
    let mut ended = ClusterCell::new(State::Running);
    assert!(!ended.compare_and_set(r[0].update));
    assert_eq!(ended.state, State::Running);
    // Cluster 2 gained a job before the jobs were read: it is not planned at all.
    let RecoveryPlan::Recover(r) = plan_recovery(P, &clusters, [JobRef::Cluster(2)]) else {
        panic!()
    };
    assert_eq!(r.iter().map(|r| r.cluster_id).collect::<Vec<_>>(), vec![1]);
}

#[test]
fn recovery_sends_a_starting_cluster_to_alert() {
    let RecoveryPlan::Recover(r) = plan_recovery(P, &[row(7, State::Starting)], []) else {
        panic!()
    };
    assert_eq!(r[0].update.target, State::Alert);
}

#[test]
fn alert_to_stopped_reconciliation_moves_the_cluster_as_listed() {
    let plan = plan_reconcile(P, State::Alert, VmSummary::AllStopped);
    let steps: Vec<_> = plan.steps().collect();
    assert_eq!(steps.len(), 2);
    // A user started the cluster since it was listed: the first step misses, nothing stops it.
    let mut started = ClusterCell::new(State::Starting);
    assert!(!started.compare_and_set(steps[0]));
    let mut alert = ClusterCell::new(State::Alert);
    assert!(steps.iter().all(|s| alert.compare_and_set(*s)));
    assert_eq!(alert.state, State::Stopped);
}

#[test]
fn reconcile_completes_only_a_recovery_it_started_itself() {
    let steps: Vec<_> = plan_reconcile(P, State::Alert, VmSummary::AllRunningHealthy)
        .steps()
        .collect();
    assert_eq!(steps[0].target, State::Recovering);
    assert_eq!(steps[1].expected, State::Recovering);
    // A cluster listed as Recovering (another pass's recovery) is left alone.
    assert!(plan_reconcile(P, State::Recovering, VmSummary::AllRunningHealthy).is_empty());
    assert!(plan_reconcile(P, State::Alert, VmSummary::Mixed).is_empty());
}

#[test]
fn a_running_cluster_with_faulty_vms_goes_to_alert() {
    for vms in [
        VmSummary::AllStopped,
        VmSummary::Mixed,
        VmSummary::Incomplete,
    ] {
        let steps: Vec<_> = plan_reconcile(P, State::Running, vms).steps().collect();
        assert_eq!(steps.len(), 1);
        assert_eq!(
            (steps[0].event, steps[0].target),
            (Event::FaultsDetected, State::Alert)
        );
    }
    assert!(plan_reconcile(P, State::Running, VmSummary::AllRunningHealthy).is_empty());
}
