// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The one error path of every native method: input errors become
//! `IllegalArgumentException`, panics become `CksStateNativeException`, and nothing unwinds
//! into the JVM.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use jni::JNIEnv;
use thiserror::Error;

use cks_state::error::CoreError;

const ILLEGAL_ARGUMENT: &str = "java/lang/IllegalArgumentException";
const NATIVE_EXCEPTION: &str = "org/apache/cloudstack/kubernetes/state/CksStateNativeException";
const OUT_OF_MEMORY: &str = "java/lang/OutOfMemoryError";

#[derive(Debug)]
pub(crate) enum BridgeError {
    /// Bad input from the caller.
    Input(String),
    /// A JNI call failed; a Java exception may already be pending.
    Jni(jni::errors::Error),
    /// The native heap refused an allocation: an `OutOfMemoryError`, never an abort.
    OutOfMemory(String),
}

impl From<CoreError> for BridgeError {
    fn from(e: CoreError) -> Self {
        BridgeError::Input(e.to_string())
    }
}

impl From<jni::errors::Error> for BridgeError {
    fn from(e: jni::errors::Error) -> Self {
        BridgeError::Jni(e)
    }
}

pub(crate) type BridgeResult<T> = Result<T, BridgeError>;

/// An argument the wire cannot decode; the message names the argument.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum DecodeError {
    #[error("{argument}: unknown {kind} code {code}")]
    UnknownCode {
        argument: &'static str,
        kind: &'static str,
        code: i64,
    },
    #[error("{argument}: length {actual} does not match {expected_from} length {expected}")]
    LengthMismatch {
        argument: &'static str,
        actual: usize,
        expected_from: &'static str,
        expected: usize,
    },
    #[error("{argument}[{index}]: {message}")]
    BadElement {
        argument: &'static str,
        index: usize,
        message: String,
    },
}

impl From<DecodeError> for BridgeError {
    fn from(e: DecodeError) -> Self {
        BridgeError::Input(e.to_string())
    }
}

/// An element of an array argument that cannot be taken: the message names the argument and index.
#[cold]
pub(crate) fn bad_element(argument: &'static str, index: usize, message: String) -> BridgeError {
    DecodeError::BadElement {
        argument,
        index,
        message,
    }
    .into()
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

fn throw(env: &mut JNIEnv, class: &str, message: &str) {
    // An exception already pending (from a failed JNI call) says more than ours would.
    if env.exception_check().unwrap_or(true) {
        return;
    }
    // Our exception class may be missing from a broken class path: still throw something.
    if env.throw_new(class, message).is_err() && !env.exception_check().unwrap_or(true) {
        let _ = env.throw_new("java/lang/RuntimeException", format!("{class}: {message}"));
    }
}

/// Runs one native method body. On error or panic it leaves a Java exception pending and
/// returns `fallback`, which Java never sees.
///
/// Only a `T` (a primitive or a reference) crosses `catch_unwind`: the body's error is parked in
/// a local instead. Returning the whole `Result<T, BridgeError>` through it made the hot path
/// store that enum field by field and reload it in one wide read, a store-forwarding stall that
/// cost more than the JNI call itself (about 10 ns of `nextState`'s 17).
#[inline(always)]
pub(crate) fn run<T: Copy>(
    env: &mut JNIEnv,
    fallback: T,
    body: impl FnOnce(&mut JNIEnv) -> BridgeResult<T>,
) -> T {
    let mut failure: Option<BridgeError> = None;
    let outcome = catch_unwind(AssertUnwindSafe(|| match body(env) {
        Ok(value) => value,
        Err(error) => {
            failure = Some(error);
            fallback
        }
    }));
    match (outcome, failure) {
        (Ok(value), None) => value,
        (outcome, failure) => {
            fail(env, outcome.err(), failure);
            fallback
        }
    }
}

/// The error path of [`run`], kept out of line so the hot path stays a few instructions.
#[cold]
#[inline(never)]
fn fail(env: &mut JNIEnv, panic: Option<Box<dyn Any + Send>>, failure: Option<BridgeError>) {
    if let Some(payload) = panic {
        let message = format!(
            "cks-state native panic: {}",
            panic_message(payload.as_ref())
        );
        throw(env, NATIVE_EXCEPTION, &message);
        return;
    }
    match failure {
        Some(BridgeError::Input(message)) => throw(env, ILLEGAL_ARGUMENT, &message),
        Some(BridgeError::OutOfMemory(message)) => throw(env, OUT_OF_MEMORY, &message),
        Some(BridgeError::Jni(error)) => throw(
            env,
            NATIVE_EXCEPTION,
            &format!("cks-state native: JNI call failed: {error}"),
        ),
        None => {}
    }
}
