// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The table's queries of `NativeBridge.java`, one thin function each: names, rows, next state,
//! the entry rule of a state, refusal texts, constants. The decisions that write are in
//! `operations.rs` and `recovery.rs`.

use jni::objects::JClass;
use jni::sys::{jint, jintArray, jlong, jlongArray, jobjectArray, jstring};
use jni::JNIEnv;
use once_cell::sync::Lazy;

use super::arrays::{new_ints, new_longs, new_strings};
use super::codec;
use super::codes::layout::release;
use super::codes::names;
use super::errors::{run, BridgeError, BridgeResult};
use super::operations::{pack_entry, CALLER};
use cks_state::table::{Event, Operation, State, TRANSITION_ROWS};
use cks_state::write::{ClusterRow, DEFAULT_HEARTBEAT_THRESHOLD_MILLIS, MAX_VERSION};
use cks_state::Profile;
use cks_state::{Mode, StateMachine};

const NAMES_STATES: jint = names::STATES;
const NAMES_EVENTS: jint = names::EVENTS;
const NAMES_OPERATIONS: jint = names::OPERATIONS;

pub(crate) fn abi_version(mut env: JNIEnv, _class: JClass) -> jint {
    run(&mut env, 0, |_| Ok(super::codes::abi::VERSION))
}

fn names_of(kind: jint) -> BridgeResult<Vec<&'static str>> {
    match kind {
        NAMES_STATES => Ok(State::ALL.iter().map(|s| s.name()).collect()),
        NAMES_EVENTS => Ok(Event::ALL.iter().map(|e| e.name()).collect()),
        NAMES_OPERATIONS => Ok(Operation::ALL.iter().map(|o| o.name()).collect()),
        other => Err(BridgeError::Input(format!(
            "kind: unknown names kind {other}"
        ))),
    }
}

pub(crate) fn names(mut env: JNIEnv, _class: JClass, kind: jint) -> jobjectArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        Ok(new_strings(env, &names_of(kind)?)?.into_raw())
    })
}

pub(crate) fn transitions(mut env: JNIEnv, _class: JClass, profile: jint) -> jintArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let profile = codec::profile("profile", profile)?;
        let triples: Vec<jint> = TRANSITION_ROWS
            .iter()
            .filter(|row| profile.includes_row(row.3))
            .flat_map(|(from, event, to, _)| {
                [from.index(), event.index(), to.index()].map(jint::from)
            })
            .collect();
        Ok(new_ints(env, &triples)?.into_raw())
    })
}

/// The table of a CloudStack release: the profile's code and how the release stands to it
/// (layout `release`).
pub(crate) fn profile_for_release(
    mut env: JNIEnv,
    _class: JClass,
    major: jint,
    minor: jint,
    patch: jint,
    build: jint,
) -> jlong {
    run(&mut env, 0, |_| {
        let (profile, fit) = Profile::for_release(codec::release([major, minor, patch, build])?);
        Ok(release::pack(
            u64::from(profile.index()),
            super::codes::release_fit_code(fit) as u64,
        ) as jlong)
    })
}

pub(crate) fn orphan_states(mut env: JNIEnv, _class: JClass) -> jintArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let codes: Vec<jint> = State::ALL
            .iter()
            .filter(|s| s.is_orphan_candidate())
            .map(|s| jint::from(s.index()))
            .collect();
        Ok(new_ints(env, &codes)?.into_raw())
    })
}

pub(crate) fn next_state(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    state: jint,
    event: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let next = cks_state::next_state(
            codec::profile("profile", profile)?,
            codec::state("state", state)?,
            codec::event("event", event)?,
        );
        Ok(next.map_or(codec::NONE, |s| jint::from(s.index())))
    })
}

pub(crate) fn decide_entry(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    operation: jint,
    state: jint,
) -> jlong {
    run(&mut env, 0, |_| {
        let profile = codec::profile("profile", profile)?;
        let operation = codec::operation("operation", operation)?;
        let state = codec::state("state", state)?;
        Ok(PACKED_ENTRY[usize::from(profile.index())][operation as usize][state as usize])
    })
}

type PackedEntries = [[[jlong; State::COUNT]; Operation::COUNT]; Profile::ALL.len()];

/// Every packed entry decision, computed once by the core: the hot call is then one load. Random
/// operations and states made the core's chain of table checks (row, proceed, nothing to do)
/// branch unpredictably, which cost more than the lookups themselves.
static PACKED_ENTRY: Lazy<PackedEntries> = Lazy::new(|| {
    let mut packed = [[[0; State::COUNT]; Operation::COUNT]; Profile::ALL.len()];
    for profile in Profile::ALL {
        for operation in Operation::ALL {
            for state in State::ALL {
                let machine = StateMachine::new(profile, Mode::Compat);
                let decision = machine
                    .entry(operation, &ClusterRow::of(state), CALLER)
                    .expect("a compat entry writes no version");
                packed[usize::from(profile.index())][operation as usize][state as usize] =
                    pack_entry(decision);
            }
        }
    }
    packed
});

pub(crate) fn refusal_reason(
    mut env: JNIEnv,
    _class: JClass,
    operation: jint,
    state: jint,
) -> jstring {
    run(&mut env, std::ptr::null_mut(), |env| {
        let refusal = cks_state::Refusal {
            operation: codec::operation("operation", operation)?,
            state: codec::state("state", state)?,
        };
        Ok(env.new_string(refusal.to_string())?.into_raw())
    })
}

/// The message of a failed scale: refused from the state it started from, or (`now` not -1) taken
/// since by another operation.
pub(crate) fn scale_message(
    mut env: JNIEnv,
    _class: JClass,
    scale_kind: jint,
    started: jint,
    now: jint,
) -> jstring {
    run(&mut env, std::ptr::null_mut(), |env| {
        let kind = codec::scale_kind("scaleKind", scale_kind)?;
        let state = codec::state("startedState", started)?;
        let message = match codec::optional("nowState", now, codec::state)? {
            None => cks_state::scaling::ScaleRefusal { kind, state }.to_string(),
            Some(now) => cks_state::scaling::TakenSince { kind, now }.to_string(),
        };
        Ok(env.new_string(message)?.into_raw())
    })
}

/// [MAX_VERSION, DEFAULT_HEARTBEAT_THRESHOLD_MILLIS]: the fenced mode's limits.
pub(crate) fn constants(mut env: JNIEnv, _class: JClass) -> jlongArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let values = [
            MAX_VERSION as jlong,
            DEFAULT_HEARTBEAT_THRESHOLD_MILLIS as jlong,
        ];
        Ok(new_longs(env, &values)?.into_raw())
    })
}
