// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The event log of one run: always hashed, kept as text only when asked (to replay a seed).

#[derive(Clone)]
pub struct Trace {
    hash: u64,
    lines: Option<Vec<String>>,
}

impl Trace {
    pub fn new(keep_lines: bool) -> Trace {
        Trace {
            hash: 0xCBF2_9CE4_8422_2325,
            lines: keep_lines.then(Vec::new),
        }
    }

    /// Records one event: `code` feeds the hash, `line` is built only when lines are kept.
    pub fn note(&mut self, code: [u64; 4], line: impl FnOnce() -> String) {
        self.mark(code);
        if let Some(lines) = &mut self.lines {
            lines.push(line());
        }
    }

    /// Records an event that prints no line (a step whose effects print their own).
    pub fn mark(&mut self, code: [u64; 4]) {
        for c in code {
            self.hash = (self.hash ^ c)
                .wrapping_mul(0x0000_0100_0000_01B3)
                .rotate_left(29);
        }
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn into_lines(self) -> Vec<String> {
        self.lines.unwrap_or_default()
    }
}
