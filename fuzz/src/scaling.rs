// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Scaling steps and completions.

use cks_state::{
    complete, next_state, Completion, Mode, Outcome, ScaleKind, ScaleStep, State, StateMachine,
};

use super::bytes::Bytes;
use super::checks::*;

/// One scale's steps and completion, checked as it goes.
fn check_scale_completion(machine: StateMachine, scale: &cks_state::Scale, succeeded: bool) {
    let outcome = if succeeded {
        Outcome::Succeeded
    } else {
        Outcome::Failed
    };
    let done = scale.completion(succeeded);
    assert_eq!(
        done,
        machine.completion(scale.hold(), outcome),
        "a scale ends as any operation"
    );
    if let Ok(Some(w)) = done {
        assert_eq!(Some(w.expected), scale.hold().map(|h| h.token));
    }
    if let Some(hold) = scale.hold() {
        check_completion(machine, hold, outcome);
    }
}

/// Scaling: a scripted run of steps, takes and completions from any token, in either mode, on
/// any rows re-read between steps.
pub fn scaling_steps(data: &[u8]) {
    let mut b = Bytes::new(data);
    let machine = StateMachine::new(b.profile(), b.mode());
    let profile = machine.profile;
    let kind = ScaleKind::ALL[usize::from(b.u8()) % ScaleKind::ALL.len()];
    let me = b.owner();
    let started = b.token();
    let resumed = b.bool().then(|| b.hold());
    let mut op = machine.resume_scale(kind, started, me, resumed);
    assert_eq!(
        (op.kind(), op.started(), op.hold()),
        (kind, started, resumed)
    );
    let mut fresh = machine.scale(kind, started, me);
    for _ in 0..32 {
        if b.is_empty() {
            break;
        }
        let current = b.row();
        let step = fresh.next_step(&current);
        exhausted_only_at_the_limit(machine, &step, started.version);
        match step {
            Err(_) => {}
            Ok(ScaleStep::Enter(take)) => {
                let u = take.write.update().expect("entering is a table row");
                assert_eq!(
                    take.write.expected, started,
                    "a scale enters from where it started"
                );
                assert_eq!(u.event, kind.event());
                assert!(fresh.entered().is_none());
                assert!(fresh.check().is_ok());
                check_take(machine, &take, me);
                if b.bool() {
                    fresh.mark_entered(&take);
                    assert_eq!(fresh.entered(), Some(u.target));
                    assert_eq!(fresh.next_step(&b.row()), Ok(ScaleStep::AlreadyEntered));
                }
            }
            Ok(ScaleStep::SettingsOnly(take)) => {
                assert_eq!(started.state, State::Created);
                assert!(fresh.entered().is_none());
                match take {
                    Some(take) => {
                        assert_eq!(machine.mode, Mode::Fenced, "compat takes nothing");
                        assert_eq!(current.token.state, State::Created);
                        assert_eq!(take.write.expected, started);
                        assert_eq!(
                            take.write.event, None,
                            "the settings change keeps the state"
                        );
                        check_take(machine, &take, me);
                        if b.bool() {
                            fresh.mark_entered(&take);
                            assert_eq!(
                                fresh.next_step(&b.row()),
                                Ok(ScaleStep::SettingsOnly(None))
                            );
                        }
                    }
                    None if fresh.hold().is_none() => {
                        assert_eq!(machine.mode, Mode::Compat, "fenced takes the cluster first");
                        assert_eq!(current.token.state, State::Created);
                    }
                    None => {}
                }
            }
            Ok(ScaleStep::FailTakenSince(s)) => {
                assert_eq!(s, current.token.state);
                assert_ne!(s, State::Created);
                assert_eq!(started.state, State::Created);
            }
            Ok(ScaleStep::AlreadyEntered) => assert!(fresh.entered().is_some()),
            Ok(ScaleStep::Busy(o)) => {
                assert_eq!(machine.mode, Mode::Fenced, "compat is never busy");
                assert_eq!(current.owner, Some(o));
                assert!(fresh.hold().is_none());
            }
            Ok(ScaleStep::Refuse(r)) => {
                assert_eq!(fresh.check(), Err(r));
                assert_eq!((r.kind, r.state), (kind, started.state));
            }
        }
        for succeeded in [true, false] {
            check_scale_completion(machine, &fresh, succeeded);
        }
        if let Ok(ScaleStep::Enter(take) | ScaleStep::SettingsOnly(Some(take))) =
            op.next_step(&current)
        {
            if b.bool() {
                op.mark_entered(&take);
            }
        }
        check_scale_completion(machine, &op, b.bool());
    }
    for outcome in Outcome::ALL {
        if let Completion::CompareAndSet(u) = complete(profile, b.optional_state(), outcome) {
            assert_eq!(next_state(profile, u.expected, u.event), Some(u.target));
        }
    }
}
