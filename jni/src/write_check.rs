// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The shape of a write the host is about to apply, asked of the core's one rule
//! (`StateMachine::check_write`): the arguments become a `Write`, the answer its message.

use jni::objects::JClass;
use jni::sys::{jboolean, jint, jlong, jstring, JNI_FALSE};
use jni::JNIEnv;

use super::codec;
use super::errors::{run, BridgeError, BridgeResult};
use super::operations::{machine, CALLER};
use cks_state::write::{Token, Write};

/// A version as the host holds it: any non-negative number (the rule judges its range).
fn non_negative(argument: &'static str, value: jlong) -> BridgeResult<u64> {
    u64::try_from(value).map_err(|_| BridgeError::Input(format!("{argument}: {value} is negative")))
}

#[allow(clippy::too_many_arguments)] // the native method's arguments, as JNI passes them
pub(crate) fn write_shape_error(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    expected_state: jint,
    expected_version: jlong,
    event: jint,
    target_state: jint,
    target_version: jlong,
    owner: jboolean,
) -> jstring {
    run(&mut env, std::ptr::null_mut(), |env| {
        let machine = machine(mode, profile)?;
        let write = Write {
            expected: Token {
                state: codec::state("expectedState", expected_state)?,
                version: non_negative("expectedVersion", expected_version)?,
            },
            target: Token {
                state: codec::state("targetState", target_state)?,
                version: non_negative("targetVersion", target_version)?,
            },
            event: codec::optional("event", event, codec::event)?,
            owner: (owner != JNI_FALSE).then_some(CALLER),
        };
        match machine.check_write(&write) {
            Ok(()) => Ok(std::ptr::null_mut()),
            Err(e) => Ok(env.new_string(e.to_string())?.into_raw()),
        }
    })
}
