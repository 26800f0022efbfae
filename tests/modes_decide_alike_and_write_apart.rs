// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! One API, the mode as data: [`StateMachine`] decides alike in both modes and differs only in
//! how it writes, as documented. Compat mode compares the state alone: every write keeps the
//! version and stores no owner, the owner of a row is never read (never Busy), and a proceed or
//! a scale of a never-started cluster writes nothing. Fenced mode bumps the version by exactly one
//! at every write (refusing past [`MAX_VERSION`]), takes the cluster to proceed, and is Busy while
//! another operation holds it.

mod common;

use cks_state::{
    Candidate, ClusterRow, EntryDecision, Hold, JobRef, Mode, Operation, Outcome, Owner, Profile,
    RecoveryPlan, ScaleKind, ScaleStep, State, StateMachine, Token, VmSummary, Write, WriteError,
    MAX_VERSION,
};
use proptest::prelude::*;

fn profile() -> impl Strategy<Value = Profile> {
    prop_oneof![Just(Profile::CloudStack4_22), Just(Profile::AlertScaling)]
}

fn state() -> impl Strategy<Value = State> {
    (0..State::COUNT).prop_map(|s| State::ALL[s])
}

/// Versions near 0, at the exhaustion limit, or anything (also past it).
fn version() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..16,
        (MAX_VERSION - 2)..=(MAX_VERSION + 2),
        any::<u64>()
    ]
}

fn owner() -> impl Strategy<Value = Owner> {
    (0u64..4, 0u64..4, prop::option::of(0u64..8)).prop_map(|(msid, runid, job_id)| Owner {
        msid,
        runid,
        job_id,
    })
}

fn cluster_row() -> impl Strategy<Value = ClusterRow> {
    (state(), version(), prop::option::of(owner())).prop_map(|(state, version, owner)| ClusterRow {
        token: Token { state, version },
        owner,
    })
}

/// Every decision's write has its mode's shape (the core's one rule, `StateMachine::check_write`).
fn check_write(profile: Profile, mode: Mode, w: &Write) {
    assert_eq!(
        StateMachine::new(profile, mode).check_write(w),
        Ok(()),
        "{mode:?} {w:?}"
    );
}

/// A fenced decision may fail only by exhausting the version it would bump.
fn fenced_ok<T>(result: Result<T, WriteError>, version: u64) -> Option<T> {
    chain_ok(result, version, 0)
}

/// The same for a chain of writes: a later step may exhaust the version an earlier one wrote.
fn chain_ok<T>(result: Result<T, WriteError>, version: u64, later_steps: u64) -> Option<T> {
    match result {
        Ok(t) => Some(t),
        Err(WriteError::VersionExhausted { version: v }) => {
            assert!(
                (version..=version.saturating_add(later_steps)).contains(&v),
                "exhausted at {v}, read {version}"
            );
            assert!(v >= MAX_VERSION, "exhausted below the limit");
            None
        }
    }
}

fn entry_writes(entry: &EntryDecision) -> Option<cks_state::Take> {
    match *entry {
        EntryDecision::Transition(take) | EntryDecision::Proceed(Some(take)) => Some(take),
        _ => None,
    }
}

fn step_writes(step: &ScaleStep) -> Option<cks_state::Take> {
    match *step {
        ScaleStep::Enter(take) | ScaleStep::SettingsOnly(Some(take)) => Some(take),
        _ => None,
    }
}

fn outcome() -> impl Strategy<Value = Outcome> {
    (0..Outcome::ALL.len()).prop_map(|o| Outcome::ALL[o])
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// Entries: compat never Busy, never reads the owner, writes no version and no owner;
    /// fenced writes version + 1; both take the same decision on a row no operation holds.
    #[test]
    fn entries_differ_between_modes_only_as_documented(
        profile in profile(),
        operation in (0..Operation::COUNT).prop_map(|o| Operation::ALL[o]),
        row in cluster_row(),
        me in owner(),
    ) {
        let compat = StateMachine::new(profile, Mode::Compat);
        let fenced = StateMachine::new(profile, Mode::Fenced);
        let c = compat.entry(operation, &row, me).expect("compat never exhausts a version");
        assert!(!matches!(c, EntryDecision::Busy(_)), "compat is never busy");
        assert!(!matches!(c, EntryDecision::Proceed(Some(_))), "a compat proceed writes nothing");
        let unheld = ClusterRow { owner: None, ..row };
        assert_eq!(compat.entry(operation, &unheld, me), Ok(c), "compat reads no owner");
        if let Some(take) = entry_writes(&c) {
            check_write(profile, Mode::Compat, &take.write);
            assert_eq!(take.write.expected, row.token);
        }
        let Some(f) = fenced_ok(fenced.entry(operation, &row, me), row.token.version) else {
            return Ok(());
        };
        if let Some(take) = entry_writes(&f) {
            check_write(profile, Mode::Fenced, &take.write);
            assert_eq!(take.write.owner, Some(me), "fenced stores the operation's owner");
        }
        match (c, f) {
            (EntryDecision::Transition(_) | EntryDecision::Proceed(None), EntryDecision::Busy(o)) => {
                assert_eq!(row.owner, Some(o), "busy only while another operation holds it");
            }
            (EntryDecision::Transition(a), EntryDecision::Transition(b)) => {
                assert_eq!(row.owner, None);
                assert_eq!(a.write.update(), b.write.update(), "the same table row");
                assert_eq!(a.hold.moved_to, b.hold.moved_to);
            }
            (EntryDecision::Proceed(None), EntryDecision::Proceed(Some(take))) => {
                assert_eq!(row.owner, None);
                assert_eq!(take.write.event, None, "a fenced proceed keeps the state");
                assert_eq!(take.write.target.state, row.token.state);
            }
            (a, b) => assert_eq!(a, b, "nothing to do and refusals are the same"),
        }
    }

    /// Completions: compat writes exactly the table's exit (else leaves it), fenced always writes
    /// to release the cluster, the same state change when there is one.
    #[test]
    fn completions_differ_between_modes_only_as_documented(
        profile in profile(),
        token in (state(), version()).prop_map(|(state, version)| Token { state, version }),
        moved_to in prop::option::of(state()),
        outcome in outcome(),
    ) {
        let hold = Hold { token, moved_to };
        let compat = StateMachine::new(profile, Mode::Compat);
        let fenced = StateMachine::new(profile, Mode::Fenced);
        let c = compat.completion(Some(hold), outcome).expect("compat never exhausts a version");
        if let Some(w) = c {
            check_write(profile, Mode::Compat, &w);
            assert!(w.event.is_some(), "compat writes only a state change");
            assert_eq!(w.expected, token);
        }
        for mode in Mode::ALL {
            assert_eq!(
                StateMachine::new(profile, mode).completion(None, outcome),
                Ok(None),
                "{mode:?}: never entered, leave it"
            );
        }
        let Some(f) = fenced_ok(fenced.completion(Some(hold), outcome), token.version) else {
            return Ok(());
        };
        let f = f.expect("fenced always releases what it holds");
        check_write(profile, Mode::Fenced, &f);
        assert_eq!((f.expected, f.owner), (token, None));
        assert_eq!(
            f.update().filter(|u| u.target != u.expected),
            c.and_then(|w| w.update()),
            "the same state change, or none (a self-loop row changes no state: compat leaves it)"
        );
    }

    /// Scale steps: compat never Busy and takes nothing to change a never-started cluster's
    /// settings; fenced takes it (keeping the state); entering is the same table row.
    #[test]
    fn scale_steps_differ_between_modes_only_as_documented(
        profile in profile(),
        kind in (0..ScaleKind::ALL.len()).prop_map(|k| ScaleKind::ALL[k]),
        started in cluster_row(),
        current in cluster_row(),
        me in owner(),
        succeeded in any::<bool>(),
    ) {
        let compat = StateMachine::new(profile, Mode::Compat).scale(kind, started.token, me);
        let fenced = StateMachine::new(profile, Mode::Fenced).scale(kind, started.token, me);
        assert_eq!(compat.check(), fenced.check());
        let c = compat.next_step(&current).expect("compat never exhausts a version");
        assert!(!matches!(c, ScaleStep::Busy(_)), "compat is never busy");
        assert!(!matches!(c, ScaleStep::SettingsOnly(Some(_))), "compat takes nothing");
        let unheld = ClusterRow { owner: None, ..current };
        assert_eq!(compat.next_step(&unheld), Ok(c), "compat reads no owner");
        let mut compat_entered = compat;
        if let Some(take) = step_writes(&c) {
            check_write(profile, Mode::Compat, &take.write);
            compat_entered.mark_entered(&take);
            if let Some(w) = compat_entered.completion(succeeded).unwrap() {
                check_write(profile, Mode::Compat, &w);
            }
        }
        let Some(f) = fenced_ok(fenced.next_step(&current), started.token.version) else {
            return Ok(());
        };
        if let Some(take) = step_writes(&f) {
            check_write(profile, Mode::Fenced, &take.write);
            assert_eq!(take.write.owner, Some(me));
            let mut entered = fenced;
            entered.mark_entered(&take);
            if let Some(w) = fenced_ok(entered.completion(succeeded), take.hold.token.version) {
                check_write(profile, Mode::Fenced, &w.expect("fenced releases what it holds"));
            }
        }
        match (c, f) {
            (ScaleStep::Enter(_) | ScaleStep::SettingsOnly(None), ScaleStep::Busy(o)) => {
                assert_eq!(current.owner, Some(o));
            }
            (ScaleStep::Enter(a), ScaleStep::Enter(b)) => {
                assert_eq!(current.owner, None);
                assert_eq!(a.write.update(), b.write.update(), "the same table row");
            }
            (ScaleStep::SettingsOnly(None), ScaleStep::SettingsOnly(Some(take))) => {
                assert_eq!(current.owner, None);
                assert_eq!(take.write.event, None, "the take keeps the state");
                assert_eq!(take.write.expected, started.token);
            }
            (a, b) => assert_eq!(a, b, "the other steps are the same"),
        }
    }

    /// Reconcile and recovery: compat reads no owner and bumps no version; fenced leaves a held
    /// listed row alone and bumps the version by one at every step.
    #[test]
    fn scanner_writes_differ_between_modes_only_as_documented(
        profile in profile(),
        row in cluster_row(),
        vms in (0..VmSummary::ALL.len()).prop_map(|v| VmSummary::ALL[v]),
        scanner in owner(),
        unknown_job in any::<bool>(),
    ) {
        let compat = StateMachine::new(profile, Mode::Compat);
        let fenced = StateMachine::new(profile, Mode::Fenced);
        let c = compat.reconcile(&row, vms, scanner).expect("compat never exhausts a version");
        let unheld = ClusterRow { owner: None, ..row };
        assert_eq!(compat.reconcile(&unheld, vms, scanner), Ok(c), "compat reads no owner");
        c.steps().for_each(|w| check_write(profile, Mode::Compat, &w));
        if let Some(f) = chain_ok(fenced.reconcile(&row, vms, scanner), row.token.version, 1) {
            f.steps().for_each(|w| check_write(profile, Mode::Fenced, &w));
            if row.owner.is_some() {
                assert!(f.is_empty(), "fenced leaves a held row alone");
            } else {
                let updates = |p: &cks_state::ReconcilePlan| p.steps().map(|w| w.update()).collect::<Vec<_>>();
                assert_eq!(updates(&c), updates(&f), "the same table rows");
            }
        }

        let candidates = [Candidate { id: 1, row }];
        let jobs: Vec<JobRef> = if unknown_job { vec![JobRef::Unknown] } else { vec![] };
        let plan = |machine: StateMachine| {
            let mut planner = cks_state::RecoveryPlanner::new(machine, candidates.iter().copied());
            planner.add_jobs(jobs.iter().copied());
            planner.finish()
        };
        let c = plan(compat).expect("compat never exhausts a version");
        assert_eq!(compat.is_candidate(&row), row.token.state.is_orphan_candidate(), "compat reads no owner");
        assert_eq!(
            c,
            plan_of(compat, &[Candidate { id: 1, row: unheld }], &jobs),
            "compat reads no owner"
        );
        if let RecoveryPlan::Recover(r) = &c {
            r.iter().for_each(|r| check_write(profile, Mode::Compat, &r.write));
        }
        if let Some(RecoveryPlan::Recover(r)) = fenced_ok(plan(fenced), row.token.version) {
            r.iter().for_each(|r| check_write(profile, Mode::Fenced, &r.write));
        }
    }
}

fn plan_of(machine: StateMachine, candidates: &[Candidate], jobs: &[JobRef]) -> RecoveryPlan {
    let mut planner = cks_state::RecoveryPlanner::new(machine, candidates.iter().copied());
    planner.add_jobs(jobs.iter().copied());
    planner.finish().unwrap()
}

/// The documented mode differences on fixed cases, one by one.
#[test]
fn a_proceed_writes_nothing_in_compat_mode_and_takes_the_cluster_in_fenced_mode() {
    let me = common::owner(1, 1, Some(1));
    let other = common::owner(2, 2, Some(2));
    let row = ClusterRow {
        token: Token {
            state: State::Destroying,
            version: 4,
        },
        owner: None,
    };
    let [compat, fenced] = Mode::ALL.map(|mode| {
        StateMachine::new(Profile::CloudStack4_22, mode).entry(Operation::Destroy, &row, me)
    });
    assert_eq!(compat, Ok(EntryDecision::Proceed(None)));
    let Ok(EntryDecision::Proceed(Some(take))) = fenced else {
        panic!("{fenced:?}")
    };
    assert_eq!(take.write.target.version, 5);
    assert_eq!(take.hold.moved_to, None);
    // The second destroy: fenced sees the first's hold, compat sees nothing.
    let held = ClusterRow {
        token: take.write.target,
        owner: Some(other),
    };
    let [compat, fenced] = Mode::ALL.map(|mode| {
        StateMachine::new(Profile::CloudStack4_22, mode).entry(Operation::Destroy, &held, me)
    });
    assert_eq!(compat, Ok(EntryDecision::Proceed(None)));
    assert_eq!(fenced, Ok(EntryDecision::Busy(other)));
}

/// What an operation holds once it goes ahead: a compat proceed holds the row as read, so its
/// completion ends from that state (as upstream's destroy worker does); no entry, no hold.
#[test]
fn a_compat_proceed_holds_the_row_as_read_and_completes_from_it() {
    let me = common::owner(1, 1, Some(1));
    let read = ClusterRow {
        token: Token {
            state: State::Destroying,
            version: 4,
        },
        owner: None,
    };
    let compat = StateMachine::new(Profile::CloudStack4_22, Mode::Compat);
    let decision = compat.entry(Operation::Destroy, &read, me).unwrap();
    let hold = decision.hold(&read).expect("a proceed goes ahead");
    assert_eq!(hold.token.state, State::Destroying);
    assert_eq!(hold.moved_to, None);
    let done = compat
        .completion(Some(hold), Outcome::Succeeded)
        .unwrap()
        .expect("the destroy ends the cluster");
    assert_eq!(
        (done.expected.state, done.target.state),
        (State::Destroying, State::Destroyed)
    );
    let fenced = StateMachine::new(Profile::CloudStack4_22, Mode::Fenced);
    let Ok(taken @ EntryDecision::Proceed(Some(take))) =
        fenced.entry(Operation::Destroy, &read, me)
    else {
        panic!("a fenced destroy of a Destroying cluster takes it")
    };
    assert_eq!(taken.hold(&read), Some(take.hold));
    let stopped = ClusterRow {
        token: Token {
            state: State::Stopped,
            version: 0,
        },
        owner: None,
    };
    let refused = compat.entry(Operation::Upgrade, &stopped, me).unwrap();
    assert!(matches!(refused, EntryDecision::Refuse(_)), "{refused:?}");
    assert_eq!(refused.hold(&stopped), None);
    let nothing = compat.entry(Operation::Stop, &stopped, me).unwrap();
    assert_eq!(nothing, EntryDecision::NothingToDo);
    assert_eq!(nothing.hold(&stopped), None);
}

#[test]
fn only_fenced_mode_runs_out_of_versions() {
    let me = common::owner(1, 1, None);
    let row = ClusterRow {
        token: Token {
            state: State::Running,
            version: MAX_VERSION,
        },
        owner: None,
    };
    let compat = StateMachine::new(Profile::CloudStack4_22, Mode::Compat);
    let Ok(EntryDecision::Transition(take)) = compat.entry(Operation::Upgrade, &row, me) else {
        panic!()
    };
    assert_eq!(take.write.target.version, MAX_VERSION);
    assert_eq!(
        StateMachine::new(Profile::CloudStack4_22, Mode::Fenced).entry(
            Operation::Upgrade,
            &row,
            me
        ),
        Err(WriteError::VersionExhausted {
            version: MAX_VERSION
        })
    );
}
