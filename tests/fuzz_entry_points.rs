// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The fuzz contracts, written once in fuzz/src/ (the checks behind the cargo-fuzz targets),
//! run here by proptest on random bytes at every `cargo test`: code decoding, table look-ups with
//! entries and reconciliation in both modes, scaling steps and completions in either mode, compat
//! recovery planning, and the fenced planner (entry, completion, scale, reconcile, recovery). Each
//! contract decodes its inputs from the bytes and panics when the core breaks a promise; proptest
//! reports the (shrunk) bytes. `make soak` runs many more cases (PROPTEST_CASES) and, with a
//! nightly toolchain, libFuzzer on the same functions.

#[path = "../fuzz/src/lib.rs"]
mod contracts;

mod common;

use proptest::collection::vec;
use proptest::prelude::*;

/// Enough bytes for the longest script a contract reads; fewer read as zeros.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..512)
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn decode_codes(data in bytes()) {
        contracts::decode_codes(&data);
    }

    #[test]
    fn table_lookups(data in bytes()) {
        contracts::table_lookups(&data);
    }

    #[test]
    fn scaling_steps(data in bytes()) {
        contracts::scaling_steps(&data);
    }

    #[test]
    fn recovery_planning(data in bytes()) {
        contracts::recovery_planning(&data);
    }

    #[test]
    fn fenced_planner(data in bytes()) {
        contracts::fenced_planner(&data);
    }
}
