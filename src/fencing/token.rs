//! The token, the owner and the one write shape of fenced mode.

use thiserror::Error;

use crate::table::{Event, State};

/// The largest version a signed `bigint` column holds.
pub const MAX_VERSION: u64 = i64::MAX as u64;

/// A management server is gone once its heartbeat is older than this, in database time.
pub const OWNER_GONE_AFTER_SECS: u64 = 150;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum FencingError {
    /// The next write would need a version past [`MAX_VERSION`]; refusing beats wrapping to a
    /// token an old reader may still hold.
    #[error("state_version {version} is exhausted")]
    VersionExhausted { version: u64 },
}

/// The token a compare-and-set expects: the state and the version it was read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token {
    pub state: State,
    pub version: u64,
}

impl Token {
    /// The token of the write that moves this one to `state`.
    pub fn next(self, state: State) -> Result<Token, FencingError> {
        match self.version.checked_add(1) {
            Some(version) if version <= MAX_VERSION => Ok(Token { state, version }),
            _ => Err(FencingError::VersionExhausted {
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

/// The fence columns of a cluster row as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fence {
    pub token: Token,
    /// None: no operation holds the cluster (or an older server wrote the row).
    pub owner: Option<Owner>,
}

impl Fence {
    pub fn is_held(&self) -> bool {
        self.owner.is_some()
    }
}

/// One compare-and-set on (state, version). `target.version` is always `expected.version + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FencedWrite {
    pub expected: Token,
    pub target: Token,
    /// The table row's event; None when the state stays (taking or releasing the cluster).
    pub event: Option<Event>,
    /// The owner stored by the write; None releases the cluster.
    pub owner: Option<Owner>,
}

impl FencedWrite {
    pub(super) fn new(
        expected: Token,
        state: State,
        event: Option<Event>,
        owner: Option<Owner>,
    ) -> Result<FencedWrite, FencingError> {
        Ok(FencedWrite {
            expected,
            target: expected.next(state)?,
            event,
            owner,
        })
    }
}

/// What an operation keeps after its entry write hit, to complete or fail by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hold {
    /// The token the entry wrote: the completion expects exactly it.
    pub token: Token,
    /// The state the entry moved the cluster to; None when it only took the cluster.
    pub moved_to: Option<State>,
}
