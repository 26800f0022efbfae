//! Decisions that the other suites reached only through JNI or not at all, pinned here so that
//! `make mutants` (cargo-mutants over the core's decision files) finds no mutant alive.

use cks_state::{
    plan_reconcile, ClusterRow, JobRef, Operation, Profile, RecoveryPlanner, ScaleKind,
    ScaleOperation, ScalingStep, State, VmSummary,
};

const P: Profile = Profile::Upstream;

fn row(id: u64, state: State) -> ClusterRow {
    ClusterRow { id, state }
}

#[test]
fn a_planner_wants_jobs_only_while_a_candidate_may_still_be_recovered() {
    let rows = [row(1, State::Scaling), row(2, State::Running)];
    let mut planner = RecoveryPlanner::new(P, rows.iter().copied());
    assert!(planner.wants_jobs(), "a candidate and no unknown job yet");
    planner.add_jobs([JobRef::Cluster(2)]);
    assert!(
        planner.wants_jobs(),
        "a job of a known cluster changes nothing"
    );
    planner.add_jobs([JobRef::Unknown]);
    assert!(
        !planner.wants_jobs(),
        "after a job of unknown cluster the pass waits"
    );

    let at_rest = [row(3, State::Running)];
    assert!(
        !RecoveryPlanner::new(P, at_rest.iter().copied()).wants_jobs(),
        "no candidate: the job query is not worth its cost"
    );
}

#[test]
fn an_empty_reconcile_plan_is_empty_and_only_it() {
    assert!(plan_reconcile(P, State::Running, VmSummary::AllRunningHealthy).is_empty());
    assert!(!plan_reconcile(P, State::Alert, VmSummary::AllStopped).is_empty());
    assert!(!plan_reconcile(P, State::Running, VmSummary::Mixed).is_empty());
}

#[test]
fn a_scale_is_checked_against_the_state_it_started_from() {
    assert!(ScaleOperation::new(P, ScaleKind::ScaleUp, State::Running)
        .check()
        .is_ok());
    assert!(
        ScaleOperation::new(P, ScaleKind::OfferingChange, State::Stopped)
            .check()
            .is_ok()
    );
    assert!(ScaleOperation::new(P, ScaleKind::ScaleUp, State::Stopped)
        .check()
        .is_err());
    assert!(
        ScaleOperation::new(P, ScaleKind::Autoscale, State::Upgrading)
            .check()
            .is_err()
    );
}

fn refusal(kind: ScaleKind, from: State) -> String {
    match ScaleOperation::new(P, kind, from).next_step(from) {
        ScalingStep::Refuse(r) => r.to_string(),
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
