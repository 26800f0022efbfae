// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Code decoding.

use cks_state::{Event, Mode, Operation, Outcome, Profile, ScaleKind, State, VmSummary};

use super::bytes::Bytes;

/// Code decoding: exactly the dense ranges decode, and decoding round-trips.
pub fn decode_codes(data: &[u8]) {
    let mut b = Bytes::new(data);
    while !b.is_empty() {
        let code = b.code();
        assert_eq!(State::from_code(code).is_some(), (0..15).contains(&code));
        assert_eq!(Event::from_code(code).is_some(), (0..14).contains(&code));
        assert_eq!(Operation::from_code(code).is_some(), (0..9).contains(&code));
        assert_eq!(
            Profile::from_code(code).is_some(),
            (0..Profile::ALL.len() as i32).contains(&code)
        );
        assert_eq!(Mode::from_code(code).is_some(), (0..2).contains(&code));
        assert_eq!(ScaleKind::from_code(code).is_some(), (0..4).contains(&code));
        assert_eq!(Outcome::from_code(code).is_some(), (0..3).contains(&code));
        assert_eq!(VmSummary::from_code(code).is_some(), (0..4).contains(&code));
        if let Some(s) = State::from_code(code) {
            assert_eq!(i32::from(s.code()), code);
            assert_eq!(State::ALL[s.code() as usize], s);
        }
        if let Some(e) = Event::from_code(code) {
            assert_eq!(i32::from(e.code()), code);
        }
        if let Some(o) = Operation::from_code(code) {
            assert_eq!(i32::from(o.code()), code);
        }
        if let Some(m) = Mode::from_code(code) {
            assert_eq!(m.code(), code);
        }
    }
}
