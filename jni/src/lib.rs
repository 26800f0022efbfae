// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The JNI glue: converts Java arguments, calls the core, converts back. Nothing here decides.

mod arrays;
mod codec;
mod codes;
mod errors;
mod on_load;
mod operations;
mod recovery;
mod results;
mod table_queries;
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod vms;
mod write_check;

// The exports: one Java_<class>_<method> symbol per native method of jni/native-methods.txt,
// each calling the function of its name in the module jni/native-methods.txt names (jni/build.rs).
include!(concat!(env!("OUT_DIR"), "/exports.rs"));

#[cfg(test)]
mod generated_java;
