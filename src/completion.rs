// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Completing and failing an operation: only from the state the operation moved the cluster to.

use crate::machine::StateMachine;
use crate::table::{Event, Profile, State, StateUpdate};
use crate::transition::update_for;
use crate::write::{Hold, Write, WriteError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Succeeded,
    Failed,
    /// A create that failed while Starting: Starting -> Error.
    CreateFailed,
}

impl Outcome {
    pub const ALL: [Outcome; 3] = [Outcome::Succeeded, Outcome::Failed, Outcome::CreateFailed];

    pub const fn event(self) -> Event {
        match self {
            Outcome::Succeeded => Event::OperationSucceeded,
            Outcome::Failed => Event::OperationFailed,
            Outcome::CreateFailed => Event::CreateFailed,
        }
    }
}

/// The completion rule of the table, the same in both modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    /// Compare-and-set from the state the operation moved the cluster to; a miss means the
    /// cluster has moved on and must be left alone.
    CompareAndSet(StateUpdate),
    /// The operation never moved the cluster, or its state has no such exit: leave it.
    LeaveIt,
}

/// How an operation that holds the cluster in `held` (the state it moved the cluster to, or the
/// state it went ahead in without a change) ends with `outcome` (`failOperationIfStillIn` and its
/// success twin): the table's row from that state, if there is one. So a start that went ahead in
/// Alert ends Running where CloudStack's table has `Alert -OperationSucceeded-> Running` (4.21+),
/// as CloudStack's own start worker does.
pub fn complete(profile: Profile, held: Option<State>, outcome: Outcome) -> Completion {
    held.and_then(|state| update_for(profile, state, outcome.event()))
        .map_or(Completion::LeaveIt, Completion::CompareAndSet)
}

impl StateMachine {
    /// How an operation that holds `hold` (None: it never entered) ends with `outcome`: the
    /// table's state change from the state its entry left, expecting the token its entry left;
    /// None leaves the cluster alone. Fenced mode always writes while it holds the cluster,
    /// to release it. A miss means the cluster was taken from the operation: leave it.
    pub fn completion(
        &self,
        hold: Option<Hold>,
        outcome: Outcome,
    ) -> Result<Option<Write>, WriteError> {
        let Some(hold) = hold else {
            return Ok(None);
        };
        // The table's row is from the hold's own state: it expects the token the entry left.
        // Compat leaves a row that keeps the state (a self-loop): its write would change
        // nothing, which a driver counting changed rows reports as a miss.
        match complete(self.profile, Some(hold.token.state), outcome) {
            Completion::CompareAndSet(u) if u.target != u.expected || self.mode.reads_fence() => {
                self.write(hold.token, u.target, Some(u.event), None)
                    .map(Some)
            }
            _ if self.mode.reads_fence() => self
                .write(hold.token, hold.token.state, None, None)
                .map(Some),
            _ => Ok(None),
        }
    }
}
