// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The checks behind the cargo-fuzz targets in `fuzz_targets/`: each one decodes arbitrary bytes
//! into inputs for one group of the core's entry points (the ones the JNI glue calls) and panics
//! when a contract is broken. libFuzzer reports a panic as a crash with the input that caused it.

mod bytes;
mod checks;
mod codes;
mod recovery;
mod scaling;
mod table;

pub use codes::decode_codes;
pub use recovery::{fenced_planner, recovery_planning};
pub use scaling::scaling_steps;
pub use table::table_lookups;
