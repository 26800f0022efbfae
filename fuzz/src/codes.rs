// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Index decoding (the wire's codes of the other values are the JNI glue's, tested there).

use cks_state::{Event, Operation, Profile, State};

use super::bytes::{index, Bytes};

/// Exactly the dense ranges decode, and decoding round-trips.
pub fn decode_codes(data: &[u8]) {
    let mut b = Bytes::new(data);
    while !b.is_empty() {
        let code = b.code();
        let dense = |count: usize| (0..count as i32).contains(&code);
        assert_eq!(index(code, State::from_index).is_some(), dense(15));
        assert_eq!(index(code, Event::from_index).is_some(), dense(14));
        assert_eq!(index(code, Operation::from_index).is_some(), dense(9));
        assert_eq!(
            index(code, Profile::from_index).is_some(),
            dense(Profile::ALL.len())
        );
        if let Some(s) = index(code, State::from_index) {
            assert_eq!(i32::from(s.index()), code);
            assert_eq!(State::ALL[s.index() as usize], s);
        }
        if let Some(e) = index(code, Event::from_index) {
            assert_eq!(i32::from(e.index()), code);
        }
        if let Some(o) = index(code, Operation::from_index) {
            assert_eq!(i32::from(o.index()), code);
        }
    }
}
