// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! How a stack writes: the one switch between the upstream-compatible and the fenced protocol.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Compare-and-set on the state alone, as upstream's DAO: no version, no owner.
    Compat,
    /// Compare-and-set on state and `state_version`, with the operation's owner: every write
    /// bumps the version, so a token misses after any write since its read (no ABA), and the
    /// scanner fails an operation only once its owner is provably gone.
    Fenced,
}

impl Mode {
    pub const ALL: [Mode; 2] = [Mode::Compat, Mode::Fenced];

    /// Whether rows carry a version and an owner that the decisions read.
    pub const fn reads_fence(self) -> bool {
        matches!(self, Mode::Fenced)
    }
}
