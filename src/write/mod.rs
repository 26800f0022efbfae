// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The one shape of a write: a compare-and-set from the token read to a target token, with the
//! owner it stores, and what an operation keeps once its write hit; `shape`, the rule every write
//! of a mode keeps.

pub mod shape;

use thiserror::Error;

use crate::error::CoreError;
use crate::table::{Event, State, StateUpdate};

/// The largest version the core writes: 2^40 - 1, over 30 years of a write every millisecond to
/// one cluster. Bounded so that a version fits a packed answer (the JNI glue's layouts test that
/// it does); past it a write refuses rather than wraps.
pub const MAX_VERSION: u64 = (1 << 40) - 1;

/// CloudStack's default `cluster.heartbeat.threshold`: a management server whose heartbeat is
/// older than this (database time) self-fences, and its peers judge it gone.
pub const DEFAULT_HEARTBEAT_THRESHOLD_MILLIS: u64 = 150_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum WriteError {
    /// The next write would need a version past [`MAX_VERSION`]; refusing beats wrapping to a
    /// token an old reader may still hold.
    #[error("state_version {version} is exhausted")]
    VersionExhausted { version: u64 },
}

/// The token a compare-and-set expects: the state and the version it was read with (compat mode
/// reads no version: 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token {
    pub state: State,
    pub version: u64,
}

impl Token {
    /// The token of a versioned write that moves this one to `state`.
    pub fn next(self, state: State) -> Result<Token, WriteError> {
        match self.version.checked_add(1) {
            Some(version) if version <= MAX_VERSION => Ok(Token { state, version }),
            _ => Err(WriteError::VersionExhausted {
                version: self.version,
            }),
        }
    }
}

/// Who holds a cluster's current operation: the management server by its process epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Owner {
    pub msid: u64,
    /// New at every start of the management server: a restart proves the old owner gone.
    pub runid: u64,
    /// The async job of the operation; none for the status scanner's own writes.
    pub job_id: Option<u64>,
}

/// A cluster row as read: its token and who holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClusterRow {
    pub token: Token,
    /// None: no operation holds the cluster (always so in compat mode, or an older server wrote it).
    pub owner: Option<Owner>,
}

impl ClusterRow {
    /// A row read in compat mode: the state alone.
    pub const fn of(state: State) -> ClusterRow {
        ClusterRow {
            token: Token { state, version: 0 },
            owner: None,
        }
    }
}

/// One compare-and-set. Compat mode: `UPDATE kubernetes_cluster SET state = target.state WHERE
/// id = ? AND state = expected.state` (the versions are equal, no owner). Fenced mode: also
/// `state_version = target.version` (always `expected.version + 1`, so a hit changes the row
/// whatever the driver's affected-rows setting) and the owner columns (NULL when none),
/// `AND state_version = expected.version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Write {
    pub expected: Token,
    pub target: Token,
    /// The table row's event; None when the state stays (taking or releasing the cluster).
    pub event: Option<Event>,
    /// The owner stored by the write; None releases the cluster (fenced) or stores none (compat).
    pub owner: Option<Owner>,
}

impl Write {
    /// Whether the write compares the version and stores the next one (fenced mode).
    pub fn versioned(&self) -> bool {
        self.target.version != self.expected.version
    }

    /// The table row the write applies, or None when the state stays.
    pub fn update(&self) -> Option<StateUpdate> {
        self.event.map(|event| StateUpdate {
            expected: self.expected.state,
            event,
            target: self.target.state,
        })
    }
}

/// What an operation keeps after its entry write hit (or, with no write, once it went ahead), to
/// complete or fail by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hold {
    /// The token the entry left: the completion expects exactly it.
    pub token: Token,
    /// The state the entry moved the cluster to; None when it did not move it.
    pub moved_to: Option<State>,
}

impl Hold {
    /// A hold from the host: one that moved the cluster holds it in the state it moved it to.
    pub fn checked(
        argument: &'static str,
        token: Token,
        moved_to: Option<State>,
    ) -> Result<Hold, CoreError> {
        match moved_to {
            Some(moved) if moved != token.state => Err(CoreError::HoldMismatch {
                argument,
                moved,
                held: token.state,
            }),
            _ => Ok(Hold { token, moved_to }),
        }
    }
}

/// A write that takes the cluster for an operation, and the hold the operation keeps on a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Take {
    pub write: Write,
    pub hold: Hold,
}

impl Take {
    /// `moves`: the write is a table row into the operation's state.
    pub(crate) fn new(write: Write, moves: bool) -> Take {
        Take {
            write,
            hold: Hold {
                token: write.target,
                moved_to: moves.then_some(write.target.state),
            },
        }
    }
}
