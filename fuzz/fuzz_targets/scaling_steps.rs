// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    cks_state_fuzz::scaling_steps(data);
});
