// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The fuzzer's bytes read as the core's inputs.

use cks_state::{ClusterRow, Hold, Mode, Owner, Profile, State, Token, MAX_VERSION};

/// Reads fixed-size values from the fuzzer's bytes; zeros once they run out.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let n = N.min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        out
    }

    pub fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }

    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }

    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }

    /// Mostly small codes, sometimes any i32: the dense range and its edges get most of the runs.
    pub fn code(&mut self) -> i32 {
        match self.u8() % 4 {
            0 => self.i32(),
            _ => i32::from(self.u8() % 20) - 2,
        }
    }

    pub fn state(&mut self) -> State {
        State::ALL[usize::from(self.u8()) % State::ALL.len()]
    }

    pub fn profile(&mut self) -> Profile {
        Profile::ALL[usize::from(self.u8()) % Profile::ALL.len()]
    }

    pub fn mode(&mut self) -> Mode {
        Mode::ALL[usize::from(self.u8()) % Mode::ALL.len()]
    }

    pub fn optional_state(&mut self) -> Option<State> {
        let b = self.u8();
        (b % 8 != 0).then(|| State::ALL[usize::from(b) % State::ALL.len()])
    }

    /// Versions near 0, near the exhaustion limit, or anything (also past the limit).
    pub fn version(&mut self) -> u64 {
        match self.u8() % 4 {
            0 => u64::from(self.u8()),
            1 => MAX_VERSION - u64::from(self.u8() % 4),
            2 => MAX_VERSION + u64::from(self.u8() % 4),
            _ => self.u64(),
        }
    }

    pub fn owner(&mut self) -> Owner {
        Owner {
            msid: u64::from(self.u8() % 4),
            runid: u64::from(self.u8() % 4),
            job_id: (self.u8() % 3 != 0).then(|| u64::from(self.u8() % 16)),
        }
    }

    pub fn token(&mut self) -> Token {
        Token {
            state: self.state(),
            version: self.version(),
        }
    }

    /// A hold as an entry leaves it: moved to its token's state, or not moved.
    pub fn hold(&mut self) -> Hold {
        let token = self.token();
        let moved_to = self.bool().then_some(token.state);
        Hold::checked("hold", token, moved_to).expect("a consistent hold")
    }

    pub fn row(&mut self) -> ClusterRow {
        ClusterRow {
            token: self.token(),
            owner: self.bool().then(|| self.owner()),
        }
    }
}

/// A code read as a table index (how the glue decodes a state, event, operation or profile).
pub fn index<T>(code: i32, from_index: fn(u8) -> Option<T>) -> Option<T> {
    u8::try_from(code).ok().and_then(from_index)
}
