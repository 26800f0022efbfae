// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The decisions that write, one thin function per native method of `NativeBridge.java`: the
//! arguments become a [`StateMachine`] and rows, the core decides, each result kind becomes its
//! code and the write or take becomes the packed layout (`results.rs`).

use jni::objects::JClass;
use jni::sys::{jboolean, jint, jlong, jlongArray, JNI_FALSE};
use jni::JNIEnv;

use super::arrays::new_longs;
use super::codec;
use super::codes::{completion, entry, scale, update};
use super::errors::{run, BridgeError, BridgeResult};
use super::results;
use cks_state::entry::EntryDecision;
use cks_state::machine::StateMachine;
use cks_state::scaling::ScaleStep;
use cks_state::write::{ClusterRow, Hold, Owner, Token, WriteError, MAX_VERSION};
use cks_state::UpstreamWrite;

/// Stands in for the caller: the core copies the owner into the write and the Java side, which
/// knows it, fills it in, so only the flag crosses back.
pub(crate) const CALLER: Owner = Owner {
    msid: 0,
    runid: 0,
    job_id: None,
};

impl From<WriteError> for BridgeError {
    fn from(e: WriteError) -> Self {
        BridgeError::Input(format!("version: {e}"))
    }
}

pub(crate) fn machine(mode: jint, profile: jint) -> BridgeResult<StateMachine> {
    Ok(StateMachine::new(
        codec::profile("profile", profile)?,
        codec::mode("mode", mode)?,
    ))
}

pub(crate) fn version(argument: &'static str, value: jlong) -> BridgeResult<u64> {
    u64::try_from(value)
        .ok()
        .filter(|v| *v <= MAX_VERSION)
        .ok_or_else(|| {
            BridgeError::Input(format!(
                "{argument}: {value} is not a version (0..={MAX_VERSION})"
            ))
        })
}

/// A row as the host read it: state, version and whether an operation holds it, each with its
/// argument's name.
struct Row {
    state: (&'static str, jint),
    version: (&'static str, jlong),
    held: jboolean,
}

impl Row {
    /// A compat row has no version: it is not read.
    fn token(&self, machine: &StateMachine) -> BridgeResult<Token> {
        let version = if machine.mode.reads_fence() {
            version(self.version.0, self.version.1)?
        } else {
            0
        };
        Ok(Token {
            state: codec::state(self.state.0, self.state.1)?,
            version,
        })
    }

    /// The owner's identity never changes a decision, only whether there is one.
    fn row(&self, machine: &StateMachine) -> BridgeResult<ClusterRow> {
        Ok(ClusterRow {
            token: self.token(machine)?,
            owner: (self.held != JNI_FALSE).then_some(CALLER),
        })
    }
}

/// A hold handed back by the host (its state -1: none), each part with its argument's name.
fn hold(
    machine: &StateMachine,
    state: (&'static str, jint),
    version: (&'static str, jlong),
    moved: (&'static str, jint),
) -> BridgeResult<Option<Hold>> {
    if state.1 == codec::NONE {
        return Ok(None);
    }
    let row = Row {
        state,
        version,
        held: JNI_FALSE,
    };
    let moved_to = codec::optional(moved.0, moved.1, codec::state)?;
    Ok(Some(Hold::checked(moved.0, row.token(machine)?, moved_to)?))
}

#[allow(clippy::too_many_arguments)] // the native method's arguments, as JNI passes them
pub(crate) fn entry(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    operation: jint,
    state: jint,
    version: jlong,
    held: jboolean,
) -> jlong {
    run(&mut env, 0, |_| {
        let machine = machine(mode, profile)?;
        let operation = codec::operation("operation", operation)?;
        let row = Row {
            state: ("state", state),
            version: ("version", version),
            held,
        };
        Ok(pack_entry(machine.entry(
            operation,
            &row.row(&machine)?,
            CALLER,
        )?))
    })
}

pub(crate) fn pack_entry(decision: EntryDecision) -> jlong {
    match decision {
        EntryDecision::Transition(take) => results::take(entry::TRANSITION, &take),
        EntryDecision::Proceed(Some(take)) => results::take(entry::PROCEED, &take),
        EntryDecision::Proceed(None) => results::nothing(entry::PROCEED),
        EntryDecision::NothingToDo => results::nothing(entry::NOTHING_TO_DO),
        EntryDecision::Refuse(_) => results::nothing(entry::REFUSE),
        EntryDecision::Busy(_) => results::nothing(entry::BUSY),
    }
}

#[allow(clippy::too_many_arguments)] // the native method's arguments, as JNI passes them
pub(crate) fn completion(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    hold_state: jint,
    hold_version: jlong,
    moved_to: jint,
    outcome: jint,
) -> jlong {
    run(&mut env, 0, |_| {
        let machine = machine(mode, profile)?;
        let outcome = codec::outcome("outcome", outcome)?;
        let hold = hold(
            &machine,
            ("holdState", hold_state),
            ("holdVersion", hold_version),
            ("movedTo", moved_to),
        )?;
        Ok(match machine.completion(hold, outcome)? {
            Some(write) => results::write(completion::COMPARE_AND_SET, &write),
            None => results::nothing(completion::LEAVE),
        })
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn scale_step(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    scale_kind: jint,
    started_state: jint,
    started_version: jlong,
    hold_state: jint,
    hold_version: jlong,
    hold_moved_to: jint,
    current_state: jint,
    current_version: jlong,
    current_held: jboolean,
) -> jlong {
    run(&mut env, 0, |_| {
        let machine = machine(mode, profile)?;
        let kind = codec::scale_kind("scaleKind", scale_kind)?;
        let started = Row {
            state: ("startedState", started_state),
            version: ("startedVersion", started_version),
            held: JNI_FALSE,
        };
        let current = Row {
            state: ("currentState", current_state),
            version: ("currentVersion", current_version),
            held: current_held,
        };
        let hold = hold(
            &machine,
            ("holdState", hold_state),
            ("holdVersion", hold_version),
            ("holdMovedTo", hold_moved_to),
        )?;
        let scale = machine.resume_scale(kind, started.token(&machine)?, CALLER, hold);
        Ok(match scale.next_step(&current.row(&machine)?)? {
            ScaleStep::Enter(take) => results::take(scale::ENTER, &take),
            ScaleStep::SettingsOnly(Some(take)) => results::take(scale::SETTINGS_ONLY, &take),
            ScaleStep::SettingsOnly(None) => results::nothing(scale::SETTINGS_ONLY),
            ScaleStep::AlreadyEntered => results::nothing(scale::ALREADY_ENTERED),
            ScaleStep::FailTakenSince(now) => results::naming(scale::FAIL_TAKEN_SINCE, now),
            ScaleStep::Busy(_) => results::nothing(scale::BUSY),
            ScaleStep::Refuse(_) => results::nothing(scale::REFUSE),
        })
    })
}

/// The plan's steps in order, each a packed write (kind 0).
#[allow(clippy::too_many_arguments)]
pub(crate) fn reconcile(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    listed_state: jint,
    listed_version: jlong,
    listed_held: jboolean,
    vm_summary: jint,
) -> jlongArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let machine = machine(mode, profile)?;
        let vms = codec::vm_summary("vmSummary", vm_summary)?;
        let listed = Row {
            state: ("listedState", listed_state),
            version: ("listedVersion", listed_version),
            held: listed_held,
        };
        let plan = machine.reconcile(&listed.row(&machine)?, vms, CALLER)?;
        let steps: Vec<jlong> = plan.steps().map(|w| results::write(0, &w)).collect();
        Ok(new_longs(env, &steps)?.into_raw())
    })
}

/// Upstream's `updateState`: the table row's compat write, decided once.
pub(crate) fn upstream_write(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    state: jint,
    event: jint,
) -> jlong {
    run(&mut env, 0, |_| {
        let answer = cks_state::upstream_write(
            codec::profile("profile", profile)?,
            codec::state("state", state)?,
            codec::event("event", event)?,
        );
        Ok(match answer {
            UpstreamWrite::Write(write) => results::write(update::WRITE, &write),
            UpstreamWrite::NoRow => results::nothing(update::NO_ROW),
            UpstreamWrite::Stays => results::nothing(update::STAYS),
        })
    })
}
