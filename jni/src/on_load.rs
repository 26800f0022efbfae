// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The library's load. A caught panic already becomes a `CksStateNativeException` carrying its
//! message (errors.rs), so the default hook's report on the JVM's stderr goes: it would repeat the
//! exception, and under RUST_BACKTRACE capture a backtrace per panic.

use std::ffi::c_void;

use jni::sys::{jint, JavaVM, JNI_VERSION_1_8};

/// Called by the JVM once per load of this file (each class loader's copy is a load of its own).
#[no_mangle]
pub extern "system" fn JNI_OnLoad(_vm: *mut JavaVM, _reserved: *mut c_void) -> jint {
    std::panic::set_hook(Box::new(|_| {}));
    JNI_VERSION_1_8
}
