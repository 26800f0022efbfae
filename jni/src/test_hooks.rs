// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Native methods of the tests' `NativeTestHooks` (java/library/src/test), built only with the
//! cargo feature `test-hooks`: the library the jar ships has none of them.

use std::sync::atomic::{AtomicU64, Ordering};

use jni::objects::{JClass, JLongArray, JString};
use jni::sys::{jint, jlong, jlongArray, jobjectArray};
use jni::JNIEnv;

use super::arrays::{new_longs, new_strings, read_longs, same_length, zeroed};
use super::codes::layout;
use super::errors::{bad_element, run, BridgeError};
use super::COUNTED_METHODS;

/// Calls per counted method; the last slot is the floor's.
static CALLS: [AtomicU64; COUNTED_METHODS.len() + 1] =
    [const { AtomicU64::new(0) }; COUNTED_METHODS.len() + 1];

/// One call of counted method `index`: a plain load and store, no locked instruction, so the
/// hot calls' benchmarks stay close to the shipped library's (exact on one thread only).
#[inline(always)]
pub(crate) fn count_call(index: usize) {
    let calls = &CALLS[index];
    calls.store(calls.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// The benchmark floor: no catch_unwind, no conversion; counted like the product's methods.
pub(crate) fn noop(_env: JNIEnv, _class: JClass, x: jint) -> jint {
    count_call(COUNTED_METHODS.len());
    x.wrapping_add(1)
}

pub(crate) fn call_counts(mut env: JNIEnv, _class: JClass) -> jlongArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let counts: Vec<jlong> = CALLS[..COUNTED_METHODS.len()]
            .iter()
            .map(|c| c.load(Ordering::Relaxed) as jlong)
            .collect();
        Ok(new_longs(env, &counts)?.into_raw())
    })
}

pub(crate) fn counted_methods(mut env: JNIEnv, _class: JClass) -> jobjectArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        Ok(new_strings(env, &COUNTED_METHODS)?.into_raw())
    })
}

/// Panics inside the one error path, with a message formatted by `format!`.
pub(crate) fn force_panic(mut env: JNIEnv, _class: JClass, message: JString) {
    run(&mut env, (), |env| {
        let text: String = if message.is_null() {
            return Err(BridgeError::Input("message must not be null".to_string()));
        } else {
            env.get_string(&message)?.into()
        };
        let code = 42;
        panic!("{text} (forced, code {code})");
    })
}

/// Packs one value per field (in the wire's order) with the glue's generated packer of `layout`,
/// for the Java readers' round-trip test.
pub(crate) fn pack(mut env: JNIEnv, _class: JClass, layout: JString, values: JLongArray) -> jlong {
    run(&mut env, 0, |env| {
        if layout.is_null() {
            return Err(BridgeError::Input("layout must not be null".to_string()));
        }
        let name: String = env.get_string(&layout)?.into();
        let v: Vec<u64> = read_longs(env, "values", &values)?
            .iter()
            .map(|&x| x as u64)
            .collect();
        let fields = match name.as_str() {
            "write" => &layout::write::FIELDS[..],
            "token" => &layout::token::FIELDS[..],
            "release" => &layout::release::FIELDS[..],
            _ => return Err(BridgeError::Input(format!("layout: unknown '{name}'"))),
        };
        same_length("values", v.len(), "the layout's fields", fields.len())?;
        if let Some(i) = (0..v.len()).find(|&i| v[i] > fields[i].1.max()) {
            return Err(bad_element(
                "values",
                i,
                format!("{} exceeds the field", v[i]),
            ));
        }
        let packed = match name.as_str() {
            "write" => layout::write::pack(v[0], v[1], v[2], v[3], v[4]),
            "release" => layout::release::pack(v[0], v[1]),
            _ => layout::token::pack(v[0], v[1]),
        };
        Ok(packed as jlong)
    })
}

/// Asks the bridge's allocator for `count` longs of the argument "hook": the path an array of the
/// scanner takes, so that a refusal of the native heap is seen from Java. Returns the count.
pub(crate) fn allocate(mut env: JNIEnv, _class: JClass, count: jlong) -> jlong {
    run(&mut env, 0, |_env| {
        let count = usize::try_from(count)
            .map_err(|_| BridgeError::Input(format!("count: {count} is negative")))?;
        Ok(zeroed("hook", count)?.len() as jlong)
    })
}
