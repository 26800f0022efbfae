// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Fenced mode decisions: tokens, owners, and recovery only when the owner is provably gone.

use cks_state::{
    Candidate, ClusterRow, EntryDecision, Event, GoneReason, Hold, InProgressJob, JobRef, Mode,
    MsHost, MsStatus, Operation, Outcome, Owner, Profile, Recovery, RecoveryPlan, ScaleKind,
    ScaleStep, State, StateMachine, Token, VmSummary, Write, WriteError,
    DEFAULT_HEARTBEAT_THRESHOLD_MILLIS, MAX_VERSION,
};

mod common;
use common::owner;

const P: Profile = Profile::CloudStack4_22;
const FENCED: StateMachine = StateMachine::new(P, Mode::Fenced);
const ME: Owner = Owner {
    msid: 1,
    runid: 10,
    job_id: Some(100),
};
const OTHER: Owner = Owner {
    msid: 2,
    runid: 20,
    job_id: Some(200),
};

fn tok(state: State, version: u64) -> Token {
    Token { state, version }
}

fn cluster_row(state: State, version: u64, owner: Option<Owner>) -> ClusterRow {
    ClusterRow {
        token: tok(state, version),
        owner,
    }
}

fn entry(operation: Operation, row: &ClusterRow, me: Owner) -> Result<EntryDecision, WriteError> {
    FENCED.entry(operation, row, me)
}

/// The take of an entry that writes: a transition when it moves the cluster, else a proceed.
fn take(operation: Operation, row: ClusterRow) -> (Write, Hold) {
    match entry(operation, &row, ME) {
        Ok(EntryDecision::Transition(t)) if t.write.event.is_some() => (t.write, t.hold),
        Ok(EntryDecision::Proceed(Some(t))) if t.write.event.is_none() => (t.write, t.hold),
        other => panic!("{operation} on {row:?}: {other:?}"),
    }
}

fn completion(hold: &Hold, outcome: Outcome) -> Result<Write, WriteError> {
    FENCED
        .completion(Some(*hold), outcome)
        .map(|w| w.expect("fenced mode always releases what it holds"))
}

/// The recoveries of a pass that must plan some (possibly none): neither Skip nor Wait.
fn recoveries(
    candidates: &[Candidate],
    jobs: &[InProgressJob],
    ended: &[u64],
    hosts: &[MsHost],
) -> Vec<Recovery> {
    match FENCED.plan_recovery(candidates, jobs, ended, hosts) {
        Ok(RecoveryPlan::Recover(r)) => r,
        other => panic!("expected Recover, got {other:?}"),
    }
}

fn host(msid: u64, runid: u64, status: MsStatus, age: u64) -> MsHost {
    MsHost {
        msid,
        runid,
        status,
        heartbeat_age_secs: age,
    }
}

fn candidate(id: u64, state: State, version: u64, owner: Option<Owner>) -> Candidate {
    Candidate {
        id,
        row: cluster_row(state, version, owner),
    }
}

fn job(job_id: u64, cluster: JobRef) -> InProgressJob {
    InProgressJob { job_id, cluster }
}

// Entry.

#[test]
fn a_transition_takes_the_cluster_with_the_next_version() {
    let row = cluster_row(State::Running, 4, None);
    assert!(matches!(
        entry(Operation::Upgrade, &row, ME),
        Ok(EntryDecision::Transition(_))
    ));
    let (write, hold) = take(Operation::Upgrade, row);
    assert_eq!(write.expected, tok(State::Running, 4));
    assert_eq!(write.target, tok(State::Upgrading, 5));
    assert_eq!(write.event, Some(Event::UpgradeRequested));
    assert_eq!(write.owner, Some(ME));
    assert_eq!(hold.token, write.target);
    assert_eq!(hold.moved_to, Some(State::Upgrading));
}

#[test]
fn a_proceed_takes_the_cluster_in_its_state() {
    for (operation, state) in [
        (Operation::Destroy, State::Destroying),
        (Operation::Start, State::Alert),
        (Operation::Start, State::Error),
        (Operation::Stop, State::Created),
        (Operation::Stop, State::Error),
    ] {
        let row = cluster_row(state, 2, None);
        assert!(
            matches!(
                entry(operation, &row, ME),
                Ok(EntryDecision::Proceed(Some(_)))
            ),
            "{operation} from {state}"
        );
        let (write, hold) = take(operation, row);
        assert_eq!(write.target, tok(state, 3), "{operation} from {state}");
        assert_eq!((write.event, write.owner), (None, Some(ME)));
        assert_eq!(hold.moved_to, None);
    }
}

#[test]
fn of_two_destroys_or_two_alert_starts_only_the_first_take_goes_ahead() {
    for (operation, state) in [
        (Operation::Destroy, State::Destroying),
        (Operation::Start, State::Alert),
    ] {
        let (first, _) = take(operation, cluster_row(state, 7, None));
        // Both read version 7: the second compare-and-set expects it and misses after the first.
        let (second, _) = take(operation, cluster_row(state, 7, None));
        assert_eq!(first.expected, second.expected);
        assert_ne!(first.target.version, first.expected.version);
        // One that reads after the first take sees the cluster held.
        let held = cluster_row(state, 8, Some(OTHER));
        assert_eq!(entry(operation, &held, ME), Ok(EntryDecision::Busy(OTHER)));
    }
}

#[test]
fn a_held_cluster_refuses_even_the_tables_starting_to_stopping_takeover() {
    let starting = cluster_row(State::Starting, 3, Some(OTHER));
    assert_eq!(
        entry(Operation::Stop, &starting, ME),
        Ok(EntryDecision::Busy(OTHER))
    );
    // Ownerless (an older server wrote it): the table decides as in compat mode.
    let (write, _) = take(Operation::Stop, cluster_row(State::Starting, 3, None));
    assert_eq!(write.target, tok(State::Stopping, 4));
}

#[test]
fn nothing_to_do_and_refusals_never_write_even_when_held() {
    let held = cluster_row(State::Starting, 1, Some(OTHER));
    assert_eq!(
        entry(Operation::Start, &held, ME),
        Ok(EntryDecision::NothingToDo)
    );
    let upgrading = cluster_row(State::Upgrading, 1, Some(OTHER));
    assert!(matches!(
        entry(Operation::Destroy, &upgrading, ME),
        Ok(EntryDecision::Refuse(_))
    ));
}

#[test]
fn the_version_cannot_overflow_a_signed_bigint() {
    let row = cluster_row(State::Running, MAX_VERSION, None);
    assert_eq!(
        entry(Operation::Stop, &row, ME),
        Err(WriteError::VersionExhausted {
            version: MAX_VERSION
        })
    );
    let (write, _) = take(
        Operation::Stop,
        cluster_row(State::Running, MAX_VERSION - 1, None),
    );
    assert_eq!(write.target.version, MAX_VERSION);
}

// Completion.

#[test]
fn a_completion_expects_the_entered_token_and_releases() {
    let hold = Hold {
        token: tok(State::Scaling, 8),
        moved_to: Some(State::Scaling),
    };
    let done = completion(&hold, Outcome::Succeeded).unwrap();
    assert_eq!(done.expected, hold.token);
    assert_eq!(done.target, tok(State::Running, 9));
    assert_eq!(done.owner, None);
    let failed = completion(&hold, Outcome::Failed).unwrap();
    assert_eq!(failed.target, tok(State::Alert, 9));
}

#[test]
fn a_zombie_completion_expects_a_version_the_cluster_no_longer_has() {
    // Entered Scaling at 5; the scanner failed it (6), a recovery ran (7, 8), a new scale
    // entered Scaling again (9). The old completion still expects (Scaling, 5).
    let (_, hold) = take(Operation::Scale, cluster_row(State::Running, 4, None));
    let late = completion(&hold, Outcome::Succeeded).unwrap();
    assert_eq!(late.expected, tok(State::Scaling, 5));
    assert_ne!(late.expected, tok(State::Scaling, 9));
}

/// A start that went ahead in Alert ends by CloudStack's `Alert -OperationSucceeded-> Running`
/// (4.21+); a failure, which has no row from Alert, only releases the cluster.
#[test]
fn a_proceed_completes_by_the_tables_row_from_its_state_else_releases() {
    let (_, hold) = take(Operation::Start, cluster_row(State::Alert, 3, None));
    let done = completion(&hold, Outcome::Succeeded).unwrap();
    assert_eq!(
        (done.expected, done.target, done.event, done.owner),
        (
            tok(State::Alert, 4),
            tok(State::Running, 5),
            Some(Event::OperationSucceeded),
            None
        )
    );
    for outcome in [Outcome::Failed, Outcome::CreateFailed] {
        let w = completion(&hold, outcome).unwrap();
        assert_eq!(
            (w.expected, w.target),
            (tok(State::Alert, 4), tok(State::Alert, 5))
        );
        assert_eq!((w.event, w.owner), (None, None));
    }
    // 4.20's table has no row from Alert: the start releases the cluster in Alert.
    let older = StateMachine::new(Profile::CloudStack4_20_0, Mode::Fenced);
    let Ok(EntryDecision::Proceed(Some(t))) =
        older.entry(Operation::Start, &cluster_row(State::Alert, 3, None), ME)
    else {
        panic!("a start of an Alert cluster goes ahead");
    };
    let w = older
        .completion(Some(t.hold), Outcome::Succeeded)
        .unwrap()
        .unwrap();
    assert_eq!((w.target, w.event), (tok(State::Alert, 5), None));
}

#[test]
fn a_create_failure_from_starting_goes_to_error() {
    let (_, hold) = take(Operation::Start, cluster_row(State::Created, 0, None));
    let w = completion(&hold, Outcome::CreateFailed).unwrap();
    assert_eq!(w.target, tok(State::Error, 2));
    assert_eq!(w.event, Some(Event::CreateFailed));
}

// Scaling.

#[test]
fn a_running_scale_enters_once_and_completes_from_its_token() {
    let mut scale = FENCED.scale(ScaleKind::ScaleUp, tok(State::Running, 2), ME);
    let Ok(ScaleStep::Enter(enter)) = scale.next_step(&cluster_row(State::Running, 2, None)) else {
        panic!()
    };
    assert_eq!(enter.write.target, tok(State::Scaling, 3));
    assert_eq!(enter.write.owner, Some(ME));
    scale.mark_entered(&enter);
    assert_eq!(scale.entered(), Some(State::Scaling));
    assert_eq!(
        scale.next_step(&cluster_row(State::Scaling, 3, Some(ME))),
        Ok(ScaleStep::AlreadyEntered)
    );
    let done = scale.completion(true).unwrap().unwrap();
    assert_eq!(
        (done.expected, done.target),
        (tok(State::Scaling, 3), tok(State::Running, 4))
    );
}

#[test]
fn a_scale_takes_by_the_token_it_was_accepted_with() {
    // Accepted at version 2; another scale ran in between (Running again, version 4).
    let scale = FENCED.scale(ScaleKind::ScaleDown, tok(State::Running, 2), ME);
    let Ok(ScaleStep::Enter(enter)) = scale.next_step(&cluster_row(State::Running, 4, None)) else {
        panic!()
    };
    assert_eq!(enter.write.expected, tok(State::Running, 2), "so it misses");
}

#[test]
fn a_created_scale_takes_then_releases_and_a_start_is_busy_meanwhile() {
    let mut scale = FENCED.scale(ScaleKind::ScaleUp, tok(State::Created, 0), ME);
    let Ok(ScaleStep::SettingsOnly(Some(taken))) =
        scale.next_step(&cluster_row(State::Created, 0, None))
    else {
        panic!()
    };
    assert_eq!(
        (taken.write.target, taken.write.event),
        (tok(State::Created, 1), None)
    );
    assert_eq!(taken.hold.moved_to, None);
    scale.mark_entered(&taken);
    // Held since its take: the settings change goes on, nothing more to write.
    assert_eq!(
        scale.next_step(&cluster_row(State::Created, 1, Some(ME))),
        Ok(ScaleStep::SettingsOnly(None))
    );
    assert_eq!(scale.entered(), None);
    assert_eq!(
        entry(
            Operation::Start,
            &cluster_row(State::Created, 1, Some(ME)),
            OTHER
        ),
        Ok(EntryDecision::Busy(ME))
    );
    let release = scale.completion(true).unwrap().unwrap();
    assert_eq!(
        (release.expected, release.target),
        (taken.write.target, tok(State::Created, 2))
    );
    assert_eq!((release.event, release.owner), (None, None));
}

#[test]
fn a_created_scale_and_a_start_that_read_the_same_token_expect_the_same_version() {
    let scale = FENCED.scale(ScaleKind::Autoscale, tok(State::Created, 5), ME);
    let Ok(ScaleStep::SettingsOnly(Some(by_scale))) =
        scale.next_step(&cluster_row(State::Created, 5, None))
    else {
        panic!()
    };
    let (by_start, _) = take(Operation::Start, cluster_row(State::Created, 5, None));
    assert_eq!(
        by_scale.write.expected, by_start.expected,
        "exactly one can hit"
    );
}

#[test]
fn a_created_scale_fails_once_a_start_took_the_cluster() {
    let scale = FENCED.scale(ScaleKind::ScaleUp, tok(State::Created, 0), ME);
    assert_eq!(
        scale.next_step(&cluster_row(State::Starting, 1, Some(OTHER))),
        Ok(ScaleStep::FailTakenSince(State::Starting))
    );
}

#[test]
fn a_scale_refused_or_never_held_leaves_the_state() {
    let stopped = FENCED.scale(ScaleKind::ScaleUp, tok(State::Stopped, 0), ME);
    assert!(matches!(
        stopped.next_step(&cluster_row(State::Stopped, 0, None)),
        Ok(ScaleStep::Refuse(_))
    ));
    assert_eq!(stopped.completion(false), Ok(None));
    let busy = FENCED.scale(ScaleKind::OfferingChange, tok(State::Stopped, 0), ME);
    assert_eq!(
        busy.next_step(&cluster_row(State::Stopped, 0, Some(OTHER))),
        Ok(ScaleStep::Busy(OTHER))
    );
}

// Reconciliation.

#[test]
fn reconcile_skips_held_rows_and_chains_versions() {
    let scanner = owner(9, 90, None);
    let held = cluster_row(State::Alert, 3, Some(ME));
    assert!(FENCED
        .reconcile(&held, VmSummary::AllStopped, scanner)
        .unwrap()
        .is_empty());
    let listed = cluster_row(State::Alert, 3, None);
    let plan = FENCED
        .reconcile(&listed, VmSummary::AllStopped, scanner)
        .unwrap();
    assert!(!plan.is_empty(), "a plan with steps is not empty");
    let steps: Vec<_> = plan.steps().collect();
    assert_eq!(steps[0].target, tok(State::Stopping, 4));
    assert_eq!(steps[0].owner, Some(scanner), "held between the two steps");
    assert_eq!(steps[1].expected, steps[0].target);
    assert_eq!(steps[1].target, tok(State::Stopped, 5));
    assert_eq!(steps[1].owner, None);
    let running = cluster_row(State::Running, 6, None);
    let faults: Vec<_> = FENCED
        .reconcile(&running, VmSummary::Mixed, scanner)
        .unwrap()
        .steps()
        .collect();
    assert_eq!(faults.len(), 1);
    assert_eq!(
        (faults[0].target, faults[0].owner),
        (tok(State::Alert, 7), None)
    );
}

// Recovery.

#[test]
fn recovery_needs_no_job_and_a_provably_gone_owner() {
    let stale = owner(2, 20, Some(7));
    let restarted = owner(3, 30, None);
    let down = owner(4, 40, None);
    let candidates = [
        candidate(1, State::Scaling, 5, Some(ME)),
        candidate(2, State::Upgrading, 6, Some(stale)),
        candidate(3, State::Alert, 2, Some(restarted)),
        candidate(4, State::Importing, 1, Some(down)),
        candidate(5, State::Running, 1, None),
    ];
    let hosts = [
        host(1, 10, MsStatus::Up, 1),
        host(
            2,
            20,
            MsStatus::Up,
            DEFAULT_HEARTBEAT_THRESHOLD_MILLIS / 1000 + 1,
        ),
        host(3, 31, MsStatus::Up, 0),
        host(4, 40, MsStatus::Down, 0),
    ];
    // A job with an unknown cluster blocks nothing when ownership is known.
    let jobs = [job(99, JobRef::Unknown)];
    let plan = recoveries(&candidates, &jobs, &[], &hosts);
    let got: Vec<_> = plan
        .iter()
        .map(|r| (r.cluster_id, r.reason, r.write.expected, r.write.target))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                2,
                GoneReason::HeartbeatStale,
                tok(State::Upgrading, 6),
                tok(State::Alert, 7)
            ),
            // Held at rest: released, not moved.
            (
                3,
                GoneReason::OwnerRestarted,
                tok(State::Alert, 2),
                tok(State::Alert, 3)
            ),
            // CloudStack's table fails an add of nodes back to Running.
            (
                4,
                GoneReason::OwnerDown,
                tok(State::Importing, 1),
                tok(State::Running, 2)
            ),
        ]
    );
    assert!(plan.iter().all(|r| r.write.owner.is_none()));
}

#[test]
fn a_heartbeat_exactly_at_the_threshold_is_still_alive() {
    let c = [candidate(1, State::Scaling, 5, Some(ME))];
    let hosts = [host(
        1,
        10,
        MsStatus::Up,
        DEFAULT_HEARTBEAT_THRESHOLD_MILLIS / 1000,
    )];
    assert!(recoveries(&c, &[], &[], &hosts).is_empty());
}

#[test]
fn an_ownerless_candidate_beside_a_live_held_one_waits_on_a_job_of_unknown_cluster() {
    // The held one's owner is alive: nothing to recover; the ownerless one may be the unknown
    // job's cluster: the pass waits rather than answering "nothing to do".
    let c = [
        candidate(1, State::Scaling, 5, Some(ME)),
        candidate(2, State::Upgrading, 3, None),
    ];
    let hosts = [host(1, 10, MsStatus::Up, 1)];
    let jobs = [job(99, JobRef::Unknown)];
    assert_eq!(
        FENCED.plan_recovery(&c, &jobs, &[], &hosts).unwrap(),
        RecoveryPlan::Wait
    );
    assert_eq!(
        FENCED.plan_recovery(&c[..1], &jobs, &[], &hosts).unwrap(),
        RecoveryPlan::Recover(vec![])
    );
}

#[test]
fn the_heartbeat_threshold_is_the_deployments_setting() {
    let c = [candidate(1, State::Scaling, 5, Some(ME))];
    let hosts = [host(1, 10, MsStatus::Up, 5)];
    let machine = StateMachine::new(Profile::CloudStack4_22, Mode::Fenced);
    let plan = |m: StateMachine| match m.plan_recovery(&c, &[], &[], &hosts).unwrap() {
        RecoveryPlan::Recover(r) => r.iter().map(|r| r.reason).collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    // Five seconds without a beat: alive by CloudStack's default, gone past a 4 s threshold, and
    // alive again at exactly 5 s.
    assert!(plan(machine).is_empty());
    assert_eq!(
        plan(machine.with_heartbeat_threshold(4_000)),
        vec![GoneReason::HeartbeatStale]
    );
    assert!(plan(machine.with_heartbeat_threshold(5_000)).is_empty());
    assert_eq!(machine.heartbeat_threshold_millis, 150_000);
}

#[test]
fn a_deleted_job_does_not_fail_a_live_owner_and_its_own_job_keeps_a_gone_one() {
    let c = [candidate(1, State::Scaling, 5, Some(ME))];
    // The job GC deleted the job: no job at all, but the owner heartbeats.
    let alive = [host(1, 10, MsStatus::Up, 3)];
    assert!(recoveries(&c, &[], &[], &alive).is_empty());
    // The owner is gone but its job (no cluster id: an older command) is still IN_PROGRESS.
    let gone = [host(1, 11, MsStatus::Up, 3)];
    let own_job = [job(100, JobRef::Unknown)];
    assert!(recoveries(&c, &own_job, &[], &gone).is_empty());
    // A job naming the cluster keeps it too.
    let cluster_job = [job(5, JobRef::Cluster(1))];
    assert!(recoveries(&c, &cluster_job, &[], &gone).is_empty());
    assert_eq!(recoveries(&c, &[], &[], &gone).len(), 1);
}

#[test]
fn an_owner_mshost_does_not_show_is_not_proven_gone() {
    let c = [candidate(1, State::Scaling, 5, Some(ME))];
    assert!(recoveries(&c, &[], &[], &[]).is_empty());
}

#[test]
fn any_evidence_of_life_among_duplicate_mshost_rows_wins() {
    let c = [candidate(1, State::Scaling, 5, Some(ME))];
    let hosts = [
        host(1, 10, MsStatus::Down, 0),
        host(1, 10, MsStatus::Other, 2),
    ];
    assert!(recoveries(&c, &[], &[], &hosts).is_empty());
}

#[test]
fn an_ownerless_candidate_is_judged_as_in_compat_mode() {
    let c = [candidate(1, State::Upgrading, 2, None)];
    let plan = recoveries(&c, &[], &[], &[]);
    assert_eq!(plan[0].reason, GoneReason::NoOwnerNoJob);
    assert_eq!(plan[0].write.expected, tok(State::Upgrading, 2));
    assert_eq!(plan[0].write.target, tok(State::Alert, 3));
    // It may be the unknown job's: nothing to recover, the pass waits.
    let unknown = [job(1, JobRef::Unknown)];
    assert_eq!(
        FENCED.plan_recovery(&c, &unknown, &[], &[]),
        Ok(RecoveryPlan::Wait)
    );
}

#[test]
fn a_pass_skips_without_candidates_and_waits_only_for_an_ownerless_one() {
    let at_rest = [candidate(1, State::Running, 2, None)];
    assert_eq!(
        FENCED.plan_recovery(&at_rest, &[], &[], &[]),
        Ok(RecoveryPlan::Skip)
    );
    let unknown = [job(7, JobRef::Unknown)];
    let ownerless = [candidate(1, State::Upgrading, 2, None)];
    assert_eq!(
        FENCED.plan_recovery(&ownerless, &unknown, &[], &[]),
        Ok(RecoveryPlan::Wait)
    );
    // Without the unknown job the same candidate is recovered.
    let Ok(RecoveryPlan::Recover(r)) = FENCED.plan_recovery(&ownerless, &[], &[], &[]) else {
        panic!()
    };
    assert_eq!(r.len(), 1);
    // A held candidate whose owner lives: nothing to recover, and no waiting on the unknown job.
    let alive = [MsHost {
        msid: ME.msid,
        runid: ME.runid,
        status: MsStatus::Up,
        heartbeat_age_secs: 1,
    }];
    let held = [candidate(1, State::Upgrading, 2, Some(ME))];
    assert_eq!(
        FENCED.plan_recovery(&held, &unknown, &[], &alive),
        Ok(RecoveryPlan::Recover(vec![]))
    );
}

#[test]
fn a_resumed_scale_decides_as_the_one_that_took() {
    let mut scale = FENCED.scale(ScaleKind::ScaleUp, tok(State::Running, 2), ME);
    let Ok(ScaleStep::Enter(enter)) = scale.next_step(&cluster_row(State::Running, 2, None)) else {
        panic!()
    };
    scale.mark_entered(&enter);
    let resumed = FENCED.resume_scale(ScaleKind::ScaleUp, tok(State::Running, 2), ME, scale.hold());
    assert_eq!(resumed, scale);
    assert_eq!(
        resumed.next_step(&cluster_row(State::Scaling, 3, Some(ME))),
        Ok(ScaleStep::AlreadyEntered)
    );
    assert_eq!(resumed.completion(false), scale.completion(false));
    let fresh = FENCED.resume_scale(ScaleKind::ScaleUp, tok(State::Running, 2), ME, None);
    assert_eq!(fresh.completion(true), Ok(None), "never held: leave it");
}

#[test]
fn candidates_are_operation_states_or_held_rows() {
    assert!(FENCED.is_candidate(&cluster_row(State::Scaling, 0, None)));
    assert!(FENCED.is_candidate(&cluster_row(State::Destroying, 0, Some(ME))));
    assert!(!FENCED.is_candidate(&cluster_row(State::Destroying, 0, None)));
    assert!(!FENCED.is_candidate(&cluster_row(State::Running, 0, None)));
}

#[test]
fn recovery_is_linear_at_a_hundred_thousand_clusters_and_a_million_jobs() {
    let gone = owner(7, 1, None);
    let candidates: Vec<Candidate> = (0..100_000u64)
        .map(|i| candidate(i, State::Scaling, i, Some(gone)))
        .collect();
    // Every cluster but those divisible by 7 has jobs, ten each.
    let jobs: Vec<InProgressJob> = (0..1_000_000u64)
        .filter(|j| (j / 10) % 7 != 0)
        .map(|j| job(1_000_000 + j, JobRef::Cluster(j / 10)))
        .collect();
    let hosts = [host(7, 2, MsStatus::Up, 0)];
    let plan = recoveries(&candidates, &jobs, &[], &hosts);
    let ids: Vec<u64> = plan.iter().map(|r| r.cluster_id).collect();
    assert_eq!(
        ids,
        (0..100_000u64).filter(|i| i % 7 == 0).collect::<Vec<_>>()
    );
}

#[test]
fn an_owner_whose_job_ended_without_releasing_is_recovered_even_while_its_server_is_up() {
    let c = [candidate(1, State::Scaling, 5, Some(ME))];
    let alive = [host(1, 10, MsStatus::Up, 3)];
    // Its own job row is finished (the completion write failed, then the job ended).
    let plan = recoveries(&c, &[], &[100], &alive);
    assert_eq!(plan.len(), 1);
    assert_eq!(plan[0].reason, GoneReason::OwnerJobEnded);
    assert_eq!(plan[0].write.expected, tok(State::Scaling, 5));
    // Another job that ended proves nothing about this owner; a job naming the cluster still wins.
    assert!(recoveries(&c, &[], &[99], &alive).is_empty());
    let cluster_job = [job(7, JobRef::Cluster(1))];
    assert!(recoveries(&c, &cluster_job, &[100], &alive).is_empty());
}
