// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Native methods of the tests' `NativeTestHooks` (java/library/src/test), built only with the
//! cargo feature `test-hooks`: the library the jar ships has none of them.

use jni::objects::{JClass, JLongArray, JString};
use jni::sys::{jint, jlong};
use jni::JNIEnv;

use super::arrays::{read_longs, same_length, zeroed};
use super::codes::layout;
use super::errors::{bad_element, run, BridgeError};

/// The benchmark floor: no catch_unwind, no conversion.
pub(crate) fn noop(_env: JNIEnv, _class: JClass, x: jint) -> jint {
    x.wrapping_add(1)
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

/// Packs one value per field (in the spec's order) with the core's generated packer of `layout`,
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
